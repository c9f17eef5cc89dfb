package sandbox

import (
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// LocaleView is a Discord locale as the page's language menus offer it.
type LocaleView struct {
	Value string `json:"value"` // "de", "es-ES"
	Name  string `json:"name"`  // "German", "Spanish (Spain)", "English (US)"
}

// Locales returns the locales Discord's client offers, English (US)
// first, then by name.
func Locales() []LocaleView {
	out := make([]LocaleView, 0, len(discordgo.Locales))
	short := strings.NewReplacer("(United States)", "(US)", "(Great Britain)", "(UK)")
	for l, name := range discordgo.Locales {
		if l != discordgo.Unknown {
			out = append(out, LocaleView{Value: string(l), Name: short.Replace(name)})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if (out[i].Value == string(discordgo.EnglishUS)) != (out[j].Value == string(discordgo.EnglishUS)) {
			return out[i].Value == string(discordgo.EnglishUS)
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// ParseLocale returns the Discord locale that s names, in Discord's
// spelling ("de", "es-ES", "pt-BR"); the case does not matter, and "_"
// stands for "-". A base language that Discord offers only by region
// ("es", "pt") is refused with the ones it offers.
func ParseLocale(s string) (string, error) {
	want := strings.ReplaceAll(strings.TrimSpace(s), "_", "-")
	var near []string
	for _, l := range Locales() {
		if strings.EqualFold(l.Value, want) {
			return l.Value, nil
		}
		if base, _, _ := strings.Cut(l.Value, "-"); want != "" && strings.EqualFold(base, want) {
			near = append(near, l.Value)
		}
	}
	if len(near) > 0 {
		return "", fmt.Errorf("%q is not a Discord locale: did you mean %s?", s, strings.Join(near, " or "))
	}
	return "", fmt.Errorf("%q is not a Discord locale (such as en-US, de, es-ES, fr, it, nl, pl, pt-BR)", s)
}

// localeRequest is the body of POST /api/locale: a user's Discord language
// (User set), or the server's (Server true).
type localeRequest struct {
	User   string `json:"user,omitempty"`
	Server bool   `json:"server,omitempty"`
	Locale string `json:"locale"`
}

// serveLocale changes a user's language, as they would in Discord's
// settings (App Settings → Language), or the server's, as its owner would
// (Server Settings → Community → Server Primary Language): POST
// /api/locale. Interactions from then on carry it.
func (s *Server) serveLocale(w http.ResponseWriter, r *http.Request) {
	var req localeRequest
	if !decode(w, r, &req) {
		return
	}
	l, err := ParseLocale(req.Locale)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	switch _, known := s.user(req.User); {
	case req.Server && req.User != "":
		writeError(w, http.StatusBadRequest, "name a user or the server, not both")
		return
	case req.Server:
		if err := s.cfg.Fake.SetGuildLocale(s.cfg.Fake.GuildID, l); err != nil {
			writeError(w, http.StatusBadRequest, err.Error())
			return
		}
	case known:
		s.mu.Lock()
		s.locales[req.User] = l
		s.mu.Unlock()
	default:
		writeError(w, http.StatusBadRequest, fmt.Sprintf("unknown user %q", req.User))
		return
	}
	s.notify()
	writeJSON(w, http.StatusOK, map[string]any{"locale": l})
}

// guildLocale returns the server's locale now.
func (s *Server) guildLocale() string {
	for _, g := range s.cfg.Fake.Guilds() {
		if g.ID == s.cfg.Fake.GuildID {
			return g.Locale
		}
	}
	return string(discordgo.EnglishUS)
}
