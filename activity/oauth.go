package activity

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// discordUser is what /users/@me says of the user of an access token.
type discordUser struct {
	ID         string `json:"id"`
	Username   string `json:"username"`
	GlobalName string `json:"global_name"`
	Locale     string `json:"locale"`
}

// tokenAnswer is Discord's answer to a code exchange.
type tokenAnswer struct {
	AccessToken string `json:"access_token"`
	TokenType   string `json:"token_type"`
	ExpiresIn   int    `json:"expires_in"`
	Scope       string `json:"scope"`
}

// oauth exchanges an Activity's authorization code at Discord's token
// endpoint with the client secret, and reads the user of the token.
type oauth struct {
	api      string // Discord's base URL, e.g. https://discord.com
	clientID string
	secret   string
	client   *http.Client
}

// exchange trades code for an access token, on the server: the secret
// never reaches the page.
func (o oauth) exchange(ctx context.Context, code string) (tokenAnswer, error) {
	form := url.Values{"grant_type": {"authorization_code"}, "code": {code},
		"client_id": {o.clientID}, "client_secret": {o.secret}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, o.api+"/api/v10/oauth2/token", strings.NewReader(form.Encode()))
	if err != nil {
		return tokenAnswer{}, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	var t tokenAnswer
	if err := o.do(req, &t); err != nil {
		return tokenAnswer{}, fmt.Errorf("token exchange: %w", err)
	}
	if t.AccessToken == "" || !strings.EqualFold(t.TokenType, "Bearer") {
		return tokenAnswer{}, fmt.Errorf("token exchange: no bearer token")
	}
	return t, nil
}

// me reads the user of an access token.
func (o oauth) me(ctx context.Context, token string) (discordUser, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, o.api+"/api/v10/users/@me", nil)
	if err != nil {
		return discordUser{}, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	var u discordUser
	if err := o.do(req, &u); err != nil {
		return discordUser{}, fmt.Errorf("users/@me: %w", err)
	}
	if u.ID == "" {
		return discordUser{}, fmt.Errorf("users/@me: no user")
	}
	return u, nil
}

// do sends req and decodes a 200's JSON into v.
func (o oauth) do(req *http.Request, v any) error {
	client := o.client
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Second}
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %.200s", resp.Status, body)
	}
	return json.Unmarshal(body, v)
}
