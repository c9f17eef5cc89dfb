package bot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/engine"
	"github.com/malefiz-discord/malefiz/render"
	"github.com/malefiz-discord/malefiz/store"
)

// deliveryLease is how long the process that commits effects keeps them to
// deliver itself; after that the sender of any process takes them (after a
// crash, the restarted process). A delivery that outlasts it may be sent a
// second time by another process, which Discord's nonce makes harmless.
const deliveryLease = 5 * time.Second

// action decides what happens to a game: it changes the match (engine
// calls, seats, timers), adds events and effects and sets the answer. It does
// no I/O; an error changes nothing.
type action func(m *match) error

// change is the one path of every change to an existing game: a click, a
// command, a timer. It takes the game's lock, loads the game, checks that
// the request belongs to it, lets act decide, then commits, answers and
// delivers (see commit). The lock is held until the effects are delivered,
// so that the next action on the game sees the IDs of the messages this one
// made (a click on the new turn message waits for its ID to be recorded).
func (b *Bot) change(ctx context.Context, r *request, id int64, act action) error {
	unlock := b.locks.lock(id)
	defer unlock()
	m, err := b.load(ctx, id)
	if err != nil {
		return err
	}
	if r != nil && r.isClick() && !r.originChecked {
		if err := m.checkOrigin(r); err != nil {
			return err
		}
	}
	if err := act(m); err != nil {
		return err
	}
	if err := b.commit(ctx, m); err != nil {
		return err
	}
	return b.answerAndDeliver(ctx, r, m)
}

// create is the path of a new game: act fills a match whose stored game is
// not saved yet; it is committed like a change, then answer, which may use
// the new game's ID, sets the answer, which is sent before the effects.
func (b *Bot) create(ctx context.Context, r *request, sg *store.Game, act, answer action) error {
	m := &match{stored: sg, now: b.now(), dirty: true}
	if err := act(m); err != nil {
		return err
	}
	if err := b.commit(ctx, m); err != nil {
		return err
	}
	if err := answer(m); err != nil {
		return err
	}
	return b.answerAndDeliver(ctx, r, m)
}

// load reads game id with the server's settings and decodes its state from
// the stored snapshot.
func (b *Bot) load(ctx context.Context, id int64) (*match, error) {
	sg, err := b.db.Game(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, refuse(locales.ErrNoSuchGame)
	} else if err != nil {
		return nil, err
	}
	return b.decode(ctx, sg)
}

// decode makes a match of a stored game.
func (b *Bot) decode(ctx context.Context, sg *store.Game) (*match, error) {
	m := &match{stored: sg, now: b.now()}
	if len(sg.State) > 0 {
		m.game = new(engine.Game)
		if err := m.game.UnmarshalSnapshot(sg.State); err != nil {
			return nil, fmt.Errorf("game %d: %w", sg.ID, err)
		}
	}
	gs, err := b.db.GuildSettings(ctx, sg.GuildID)
	if err != nil {
		return nil, err
	}
	m.settings = gs
	return m, nil
}

// commit writes what the match holds in one transaction: the game with its
// snapshot, its events, the results when it just finished, and its effects,
// claimed by this process so that it delivers them itself. A match that
// changed nothing writes nothing.
func (b *Bot) commit(ctx context.Context, m *match) error {
	if !m.dirty && len(m.effects) == 0 {
		return nil
	}
	sg := m.stored
	if m.game != nil {
		data, err := m.game.MarshalSnapshot()
		if err != nil {
			return err
		}
		sg.State = data
	}
	c := &store.Commit{Game: sg, Events: m.events, Owner: b.owner, Lease: deliveryLease}
	for _, e := range m.effects {
		se, err := e.stored()
		if err != nil {
			return err
		}
		c.Effects = append(c.Effects, se)
	}
	if m.game != nil && m.game.Over() && sg.Status.Open() {
		results, err := b.results(ctx, m)
		if err != nil {
			return err
		}
		c.Results = results
		sg.Deadline, sg.RemindAt, sg.WakeAt = time.Time{}, time.Time{}, time.Time{}
	}
	start := time.Now()
	err := b.db.Commit(ctx, c)
	b.observeCommit(start, err)
	if err != nil {
		if errors.Is(err, store.ErrChannelBusy) {
			return refuse(locales.ErrChannelBusy)
		}
		return err
	}
	if m.wake {
		b.nudge()
	}
	return nil
}

// answerAndDeliver answers the request with the match's reply (drawing its
// board), then delivers the effects the commit wrote.
func (b *Bot) answerAndDeliver(ctx context.Context, r *request, m *match) error {
	if r != nil {
		r.committed = m.dirty
	}
	var err error
	if r != nil && m.reply != nil {
		err = b.respondReply(r, m.reply)
		if err == nil && m.adoptAnswer != "" {
			b.adoptResponse(r, m.stored.ID, m.adoptAnswer)
		}
	}
	if len(m.effects) > 0 {
		b.deliverGame(m.stored.ID, r)
	}
	return err
}

// respondReply sends a reply, with its board drawn.
func (b *Bot) respondReply(r *request, rp *reply) error {
	data := rp.data
	if rp.board != nil {
		f, err := b.boardFile(*rp.board)
		if err != nil {
			b.log.Error("could not draw the board", "err", err)
			dropBoardImage(data.Embeds)
		} else {
			data.Files = []*discordgo.File{f}
		}
	}
	return b.respond(r, &discordgo.InteractionResponse{Type: rp.typ, Data: data})
}

// boardFile draws s as the message's board.png.
func (b *Bot) boardFile(s render.Scene) (*discordgo.File, error) {
	start := time.Now()
	data, err := b.renderer.PNG(s)
	b.observeRender(start)
	if err != nil {
		return nil, err
	}
	return &discordgo.File{Name: boardFileName, ContentType: "image/png", Reader: bytes.NewReader(data)}, nil
}

// boardFileName is the attachment every board travels as.
const boardFileName = "board.png"

// dropBoardImage removes the embed image that points at a board that could
// not be drawn.
func dropBoardImage(embeds []*discordgo.MessageEmbed) {
	for _, e := range embeds {
		if e.Image != nil && e.Image.URL == "attachment://"+boardFileName {
			e.Image = nil
		}
	}
}

// checkOrigin refuses a click that does not come from this game's place:
// another server, another channel, or a message that is not this game's
// lobby (in the channel) or turn message (where the game plays: its
// thread, else the channel), or a private message of the bot.
func (m *match) checkOrigin(r *request) error {
	sg := m.stored
	inChannel := r.i.ChannelID == sg.ChannelID
	inThread := sg.ThreadID != "" && r.i.ChannelID == sg.ThreadID
	if r.i.GuildID != sg.GuildID || !(inChannel || inThread) {
		return refuse(locales.ErrForeignButton)
	}
	msg := r.i.Message
	if msg == nil {
		return refuse(locales.ErrForeignButton)
	}
	atPlay := inThread || (inChannel && sg.ThreadID == "")
	fromBot := msg.Author != nil && msg.Author.ID == r.i.AppID
	switch {
	case !fromBot:
		return refuse(locales.ErrForeignButton)
	case msg.Flags&discordgo.MessageFlagsEphemeral != 0:
		return nil // only the bot makes its private messages, for this user
	case msg.ID == sg.LobbyMessageID && inChannel:
		return nil
	case msg.ID == sg.TurnMessageID && atPlay:
		return nil
	case msg.ID == sg.LobbyMessageID || msg.ID == sg.TurnMessageID:
		return refuse(locales.ErrForeignButton) // the game's message, but not from its place
	case sg.Status == store.StatusLobby && sg.LobbyMessageID == "" && inChannel:
		return nil // the lobby's ID is being recorded (see cmdNew)
	}
	return refuse(locales.ErrOldButton) // an older message of the game
}

// nudge wakes the scheduler to look at the deadlines again.
func (b *Bot) nudge() {
	select {
	case b.wake <- struct{}{}:
	default:
	}
}
