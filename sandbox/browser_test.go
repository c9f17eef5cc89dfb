package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/fakediscord"
	"github.com/malefiz-discord/malefiz/render"
)

// fixtureThread is the ID of the archived thread the fixture page adds.
const fixtureThread = "990000000000000001"

// fixture is a message the fixture page shows in a channel.
type fixture struct {
	m        fakediscord.Message
	comps    []discordgo.MessageComponent
	archived bool
}

// fixturePage is the real sandbox page with messages the fake cannot
// hold yet (Components V2) added to the state it streams: it tests what
// the page draws from Discord's documented JSON.
type fixturePage struct {
	srv      *Server
	channels []channelView
	messages map[string][]fixture // by channel ID
}

func (p *fixturePage) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/events":
		user, channel := r.URL.Query().Get("user"), r.URL.Query().Get("channel")
		st := p.srv.state(user, channel)
		st.Channels = append(st.Channels, p.channels...)
		for _, f := range p.messages[channel] {
			st.Messages = append(st.Messages, p.srv.messageView(f.m, componentTree(f.comps), user, nil, f.archived))
		}
		data, err := json.Marshal(st)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "event: state\ndata: %s\n\n", data)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	case strings.HasPrefix(r.URL.Path, "/attachments/"):
		parts := strings.Split(r.URL.Path, "/") // "", attachments, message, attachment, name
		for _, fs := range p.messages {
			for _, f := range fs {
				for _, a := range f.m.Attachments {
					if len(parts) == 5 && f.m.ID == parts[2] && a.ID == parts[3] {
						w.Header().Set("Content-Type", a.ContentType)
						_, _ = w.Write(a.Data)
						return
					}
				}
			}
		}
		p.srv.ServeHTTP(w, r)
	default:
		p.srv.ServeHTTP(w, r)
	}
}

// pawnPNG is a red pawn on a transparent square, for a thumbnail.
func pawnPNG(t *testing.T) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 64, 64))
	for y := 0; y < 64; y++ {
		for x := 0; x < 64; x++ {
			if dx, dy := x-32, y-32; dx*dx+dy*dy < 24*24 {
				img.Set(x, y, color.RGBA{0xD3, 0x2F, 0x2F, 0xFF})
			}
		}
	}
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, img))
	return buf.Bytes()
}

// newFixturePage serves the sandbox with, in its channel, 20 history
// lines and the V2 turn of v2Fixture, and an archived thread with a long
// name holding the same turn.
func newFixturePage(t *testing.T) (*httptest.Server, *fakediscord.Fake) {
	t.Helper()
	fake := fakediscord.New(t)
	users := Users("Alice", "Bob")
	srv, err := New(Config{Fake: fake, Users: users})
	require.NoError(t, err)
	board, err := render.New(800).PNG(render.NewScene(engine.StartPosition()))
	require.NoError(t, err)
	turn, comps := v2Fixture(users[0].ID, board, pawnPNG(t))
	p := &fixturePage{srv: srv, messages: map[string][]fixture{}}
	start := time.Now().Add(-time.Hour)
	for i := range 20 {
		p.messages[fake.ChannelID] = append(p.messages[fake.ChannelID], fixture{m: fakediscord.Message{
			ID: fmt.Sprintf("8000000000000000%02d", i), ChannelID: fake.ChannelID, Created: start.Add(time.Duration(i) * time.Minute),
			Content: fmt.Sprintf("**Turn %d** · Bob rolled a %d and moved b%d→c%d", i+1, i%6+1, i%9+1, i%9+2),
		}})
	}
	// A lobby with a three-picture gallery and a section whose accessory
	// is a button, under a spoiler.
	pawn := pawnPNG(t)
	lobby := fakediscord.Message{ID: "800000000000000099", ChannelID: fake.ChannelID, Created: start.Add(25 * time.Minute),
		Flags: discordgo.MessageFlagsIsComponentsV2, Attachments: []fakediscord.Attachment{
			{ID: "21", Filename: "a.png", ContentType: "image/png", Data: board},
			{ID: "22", Filename: "b.png", ContentType: "image/png", Data: pawn},
			{ID: "23", Filename: "c.png", ContentType: "image/png", Data: pawn}}}
	var items []discordgo.MediaGalleryItem
	for _, n := range []string{"a", "b", "c"} {
		items = append(items, discordgo.MediaGalleryItem{Media: discordgo.UnfurledMediaItem{URL: "attachment://" + n + ".png"}})
	}
	p.messages[fake.ChannelID] = append(p.messages[fake.ChannelID], fixture{m: lobby, comps: []discordgo.MessageComponent{
		discordgo.Container{Components: []discordgo.MessageComponent{
			discordgo.Section{Components: []discordgo.MessageComponent{discordgo.TextDisplay{Content: "# Malefiz lobby\n1. Alice\n2. Bob"}},
				Accessory: discordgo.Button{Label: "Join", Style: discordgo.SuccessButton, CustomID: "mf/join/1"}},
			discordgo.MediaGallery{Items: items},
		}},
		discordgo.Container{Spoiler: true, Components: []discordgo.MessageComponent{discordgo.TextDisplay{Content: "the winner"}}},
	}})
	turn.ChannelID, turn.Created = fake.ChannelID, start.Add(30*time.Minute)
	p.messages[fake.ChannelID] = append(p.messages[fake.ChannelID], fixture{m: turn, comps: comps})
	archived := turn
	archived.ID, archived.ChannelID = "900000000000000002", fixtureThread
	p.messages[fixtureThread] = []fixture{{m: archived, comps: comps, archived: true}}
	p.channels = []channelView{{ID: fixtureThread, Name: "Malefiz #12 · Alice, Bob, Computer (normal) and Carol", Thread: true, ParentID: fake.ChannelID, Archived: true}}
	hs := httptest.NewServer(p)
	t.Cleanup(hs.Close)
	return hs, fake
}

// chromium starts a headless Chromium with a fresh profile, or skips the
// test without one (and fails in CI, the CI variable set).
func chromium(t *testing.T, width, height int) context.Context {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("chromium is not installed (apt-get install -y chromium)")
		}
		t.Skip("chromium is not installed (apt-get install -y chromium)")
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("force-color-profile", "srgb"),
		chromedp.Flag("force-prefers-reduced-motion", true),                         // see e2e/harness.Browser
		chromedp.Flag("disable-features", "WebUIOmniboxPopup,WebUIOmniboxAimPopup"), // see e2e/harness.Browser
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(width, height),
	)
	t.Cleanup(cancelAlloc)
	ctx, cancel := chromedp.NewContext(alloc, chromedp.WithErrorf(t.Logf))
	t.Cleanup(cancel)
	ctx, cancelTimeout := context.WithTimeout(ctx, 60*time.Second)
	t.Cleanup(cancelTimeout)
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(int64(width), int64(height))))
	return ctx
}

// shoot saves the viewport under SANDBOX_SCREENSHOTS (a directory), if
// set, for a person to look at.
func shoot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("SANDBOX_SCREENSHOTS")
	if dir == "" {
		return
	}
	require.NoError(t, chromedp.Do(ctx, chromedp.MouseEvent(chromedp.MouseMoved, 1, 1)))
	buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, buf, 0o644))
	t.Logf("screenshot %s", path)
}

// layout is what the page drew of the V2 turn, read by layoutJS.
type layout struct {
	Container   float64 `json:"container"`   // width of the turn's container
	Inner       float64 `json:"inner"`       // its content width
	Body        float64 `json:"body"`        // width of the message's body
	Gallery     float64 `json:"gallery"`     // width of the board image
	Accent      string  `json:"accent"`      // the container's left border colour
	Buttons     int     `json:"buttons"`     // move buttons
	Disabled    int     `json:"disabled"`    // disabled ones
	Heading     string  `json:"heading"`     // the text display's heading
	Mention     string  `json:"mention"`     // the mention's text
	Subtext     string  `json:"subtext"`     // the -# line
	Thumb       bool    `json:"thumb"`       // the section's thumbnail loaded
	File        string  `json:"file"`        // the file component's text
	Images      int     `json:"images"`      // images in the message
	Embeds      int     `json:"embeds"`      // legacy embeds drawn
	Bottom      float64 `json:"bottom"`      // how far the list is scrolled from its bottom
	ListItems   int     `json:"listItems"`   // the scoreboard's list items
	Separator   bool    `json:"separator"`   // a divider line is drawn
	PageOverrun float64 `json:"pageOverrun"` // how far the page is wider than the window
}

const layoutJS = `(() => {
  const msg = [...document.querySelectorAll('#messages .msg')].pop();
  const c = msg.querySelector('.v2-container');
  const cs = getComputedStyle(c);
  const list = document.querySelector('#messages');
  const img = msg.querySelector('.v2-gallery img');
  const thumb = msg.querySelector('.v2-thumb img');
  return {
    container: c.getBoundingClientRect().width,
    inner: c.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight),
    body: msg.querySelector('.body').getBoundingClientRect().width,
    gallery: img.complete && img.naturalWidth ? img.getBoundingClientRect().width : 0,
    accent: cs.borderLeftColor,
    buttons: msg.querySelectorAll('button[data-cid^="mf/move/"]').length,
    disabled: msg.querySelectorAll('button[data-cid^="mf/move/"]:disabled').length,
    heading: (msg.querySelector('.v2-text h3') || {}).textContent || '',
    mention: (msg.querySelector('.v2-text .mention') || {}).textContent || '',
    subtext: (msg.querySelector('.v2-text .subtext') || {}).textContent || '',
    thumb: !!(thumb && thumb.complete && thumb.naturalWidth),
    file: (msg.querySelector('.v2-file') || {}).textContent || '',
    images: msg.querySelectorAll('img').length,
    embeds: msg.querySelectorAll('.embed').length,
    bottom: list.scrollHeight - list.scrollTop - list.clientHeight,
    listItems: msg.querySelectorAll('.md-li').length,
    separator: !!msg.querySelector('.v2-separator.divider.large'),
    pageOverrun: document.documentElement.scrollWidth - window.innerWidth,
  };
})()`

// readLayout waits until the turn's images have loaded and reads the layout.
func readLayout(t *testing.T, ctx context.Context) layout {
	t.Helper()
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Poll[chromedp.Void](`(() => { const i = [...document.querySelectorAll('#messages .msg')].pop()?.querySelectorAll('.v2 img') || [];
		  return i.length === 2 && [...i].every((x) => x.complete && x.naturalWidth > 0); })()`,
			chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(20*time.Second)),
		chromedp.Sleep(200*time.Millisecond))) // the resize observer's frame
	// An image's load handler scrolls the list to its bottom: it runs a
	// task after the image is complete, which on a loaded machine came
	// past the 200 ms (CI: the list 537 px, the board's height, from its
	// bottom). Wait for it a while; the tests check Bottom.
	_ = chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`(() => { const l = document.querySelector('#messages');
	  return l.scrollHeight - l.scrollTop - l.clientHeight < 2; })()`,
		chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(5*time.Second)))
	l, err := chromedp.Run(ctx, chromedp.Evaluate[layout](layoutJS))
	require.NoError(t, err)
	return l
}

func TestV2TurnInTheBrowser(t *testing.T) {
	hs, _ := newFixturePage(t)
	ctx := chromium(t, 1280, 800)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(hs.URL), chromedp.WaitReady(chromedp.CSS(`body[data-ready="true"]`))))

	desk := readLayout(t, ctx)
	t.Logf("1280 px: %+v", desk)
	assert.InDelta(t, 600, desk.Container, 1, "a container is at most 600 px wide on a desktop")
	assert.InDelta(t, desk.Inner, desk.Gallery, 1, "the board is as wide as the container")
	assert.Equal(t, "rgb(211, 47, 47)", desk.Accent, "the accent bar has accent_color")
	assert.Equal(t, 5, desk.Buttons)
	assert.Zero(t, desk.Disabled)
	assert.Equal(t, "Turn 12 · Red", desk.Heading)
	assert.Equal(t, "@Alice", desk.Mention)
	assert.Contains(t, desk.Subtext, "red: captures")
	assert.True(t, desk.Thumb, "the section's thumbnail")
	assert.Contains(t, desk.File, "game.txt")
	assert.Equal(t, 2, desk.Images, "the unreferenced attachment is not shown")
	assert.Zero(t, desk.Embeds)
	assert.Equal(t, 2, desk.ListItems)
	assert.True(t, desk.Separator)
	assert.Less(t, desk.Bottom, 2.0, "the list starts at its bottom")
	shoot(t, ctx, "v2-1280.png")
	type lobbyLayout struct {
		Items    []float64 `json:"items"`    // widths of the gallery's pictures
		Join     bool      `json:"join"`     // the section's button beside its text
		Spoiler  bool      `json:"spoiler"`  // the spoilered container is hidden
		Revealed bool      `json:"revealed"` // and shown after a click
		Numbered string    `json:"numbered"` // the first numbered line's number
	}
	lobby, err := chromedp.Run(ctx, chromedp.Evaluate[lobbyLayout](`(() => {
	  const m = document.getElementById('m-800000000000000099');
	  const text = m.querySelector('.v2-section-text').getBoundingClientRect();
	  const join = m.querySelector('.v2-accessory button[data-cid="mf/join/1"]');
	  const sp = m.querySelector('.spoiler');
	  const hidden = getComputedStyle(sp.firstElementChild).filter.includes('blur');
	  sp.click();
	  return { items: [...m.querySelectorAll('.v2-gallery img')].map((i) => i.getBoundingClientRect().width),
	    join: !!join && join.getBoundingClientRect().left >= text.right, spoiler: hidden,
	    revealed: getComputedStyle(sp.firstElementChild).filter === 'none',
	    numbered: m.querySelector('.md-li.ol').dataset.n };
	})()`))
	require.NoError(t, err)
	require.Len(t, lobby.Items, 3)
	assert.Greater(t, lobby.Items[0], 1.5*lobby.Items[1], "of three pictures the first is the large one")
	assert.InDelta(t, lobby.Items[1], lobby.Items[2], 1)
	assert.True(t, lobby.Join, "a section's button is beside its text")
	assert.True(t, lobby.Spoiler)
	assert.True(t, lobby.Revealed)
	assert.Equal(t, "1.", lobby.Numbered)
	require.NoError(t, chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`document.getElementById('m-800000000000000099').scrollIntoView()`)))
	shoot(t, ctx, "v2-1280-lobby.png")
	require.NoError(t, chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`[...document.querySelectorAll('#messages .msg')].pop().scrollIntoView()`)))
	shoot(t, ctx, "v2-1280-top.png")
	require.NoError(t, chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`document.querySelector('#messages').scrollTop = 1e6`)))

	// Narrowed to a phone: the list stays at its bottom, the container
	// takes the whole width, nothing sticks out of the window.
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(400, 800)))
	phone := readLayout(t, ctx)
	t.Logf("400 px: %+v", phone)
	assert.InDelta(t, phone.Body, phone.Container, 1, "the container is as wide as the message on a phone")
	assert.InDelta(t, phone.Inner, phone.Gallery, 1)
	assert.Greater(t, phone.Gallery, 280.0)
	assert.Less(t, phone.Bottom, 2.0, "the list stays at its bottom after a resize")
	assert.LessOrEqual(t, phone.PageOverrun, 0.0, "nothing is wider than the phone")
	shoot(t, ctx, "v2-400.png")

	// Back to the desktop, and to a short window: still at the bottom.
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 500)))
	assert.Less(t, readLayout(t, ctx).Bottom, 2.0, "the list stays at its bottom after a resize")
}

func TestPhoneDrawerAndArchivedThreadInTheBrowser(t *testing.T) {
	hs, _ := newFixturePage(t)
	ctx := chromium(t, 400, 800)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(hs.URL), chromedp.WaitReady(chromedp.CSS(`body[data-ready="true"]`))))
	hidden, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector('#sidebar').getBoundingClientRect().right <= 0`))
	require.NoError(t, err)
	assert.True(t, hidden, "the channel list is out of the way on a phone")

	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#nav-toggle`)), chromedp.Sleep(400*time.Millisecond)))
	type channelName struct {
		Shown    bool   `json:"shown"`
		Ellipsis string `json:"ellipsis"`
		Cut      bool   `json:"cut"`
		Title    string `json:"title"`
	}
	name, err := chromedp.Run(ctx, chromedp.Evaluate[channelName](`(() => {
	  const n = document.querySelector('#channels .thread .name');
	  return { shown: document.querySelector('#sidebar').getBoundingClientRect().left >= 0,
	    ellipsis: getComputedStyle(n).textOverflow, cut: n.scrollWidth > n.clientWidth, title: n.parentElement.title };
	})()`))
	require.NoError(t, err)
	assert.True(t, name.Shown, "☰ opens the channel list")
	assert.Equal(t, "ellipsis", name.Ellipsis, "a long thread name ends in an ellipsis")
	assert.True(t, name.Cut)
	assert.Contains(t, name.Title, "Computer (normal) and Carol", "the whole name is its title")
	shoot(t, ctx, "v2-400-channels.png")

	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#channels .thread a`)),
		chromedp.WaitReady(chromedp.CSS(`body[data-channel="`+fixtureThread+`"]`))))
	l := readLayout(t, ctx)
	assert.Equal(t, 5, l.Buttons)
	assert.Equal(t, 5, l.Disabled, "the buttons of a message in an archived thread are disabled")
	note, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`!document.querySelector('#archived-note').hidden && document.querySelector('#sidebar').getBoundingClientRect().right <= 0`))
	require.NoError(t, err)
	assert.True(t, note, "the thread says it is archived, and the channel list closed")
	shoot(t, ctx, "v2-400-archived.png")
}

func TestSkipToastCoversNoMessage(t *testing.T) {
	hs, _ := newFixturePage(t)
	for _, width := range []int64{1280, 400} {
		ctx := chromium(t, int(width), 800)
		require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(hs.URL), chromedp.WaitReady(chromedp.CSS(`body[data-ready="true"]`))))
		type toastPlace struct {
			Shown   bool    `json:"shown"`
			Overlap float64 `json:"overlap"`
		}
		require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#skip`)), chromedp.WaitVisible(chromedp.CSS(`#toast`))))
		overlap, err := chromedp.Run(ctx, chromedp.Evaluate[toastPlace](`(() => {
			  const t = document.querySelector('#toast').getBoundingClientRect();
			  const l = document.querySelector('#messages').getBoundingClientRect();
			  return { shown: t.height > 0, overlap: Math.max(0, Math.min(t.bottom, l.bottom) - Math.max(t.top, l.top)) };
			})()`))
		require.NoError(t, err)
		assert.True(t, overlap.Shown, "%d px", width)
		assert.Zero(t, overlap.Overlap, "%d px: the toast covers none of the messages", width)
		if width == 400 {
			shoot(t, ctx, "v2-400-skipped.png")
		}
	}
}
