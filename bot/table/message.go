package table

import "github.com/malefiz-discord/malefiz/render"

// Message is a message of the game as plain data: what the adapter turns
// into Discord's message body. Its board is drawn once, when it goes out.
type Message struct {
	Content string
	Embeds  []Embed
	Rows    []Row
	// Pings are the users the message notifies; nobody else is.
	Pings []string
	// Silent: the message names its Pings without notifying them
	// (Discord's @silent, SUPPRESS_NOTIFICATIONS): they are watching.
	Silent bool
	// ReplyTo, when set, is the message this one answers (a reminder
	// under the turn message); it need not exist any more.
	ReplyTo string
	// Board, when set, is drawn and attached as board.png.
	Board *render.Scene
	// BoardAlt is the board in words, the picture's alt text (Discord's
	// description of a media gallery item, at most MaxAlt characters):
	// whose turn, the roll, each lettered choice, the leader's distance.
	BoardAlt string
	// Chart, when set, is drawn and attached as chances.png.
	Chart *Chart
	// ChartAlt is the chart in words, its alt text.
	ChartAlt string
	// Chances, when set, fills in the ChanceTokens of the message's text
	// when it is delivered.
	Chances *ChanceFill
	// Legend, when set, is one line under the buttons saying what the
	// marks of this message's buttons mean.
	Legend string
}

// Embed is one embed of a message.
type Embed struct {
	Title       string
	Description string
	Color       int
	Footer      string
	// Board: the embed shows the message's board as its image.
	Board bool
	// Chart: the embed shows the message's chart as its image.
	Chart bool
}

// Row is a row of components: buttons, or one select menu.
type Row struct {
	Buttons []Button
	Menu    *Menu
}

// Style is a button's colour.
type Style int

// The button styles, as Discord names them.
const (
	Primary Style = iota + 1
	Secondary
	Success
	Danger
)

// Button is a button of a message.
type Button struct {
	Label    string
	Emoji    string
	Style    Style
	CustomID string
	Disabled bool
}

// Menu is a select menu.
type Menu struct {
	CustomID    string
	Placeholder string
	Options     []Option
}

// Option is one choice of a select menu.
type Option struct {
	Label       string
	Value       string
	Description string
}

// Text is a message of one text, which pings nobody.
func Text(s string) Message { return Message{Content: s} }

// buttonRows lays buttons out five to a row.
func buttonRows(buttons []Button) []Row {
	var rows []Row
	for len(buttons) > 0 {
		n := min(5, len(buttons))
		rows = append(rows, Row{Buttons: buttons[:n]})
		buttons = buttons[n:]
	}
	return rows
}

// ReplyKind is how a request is answered.
type ReplyKind int

// The kinds of answers.
const (
	// Update replaces the clicked message (its board dropped unless the
	// answer has one).
	Update ReplyKind = iota + 1
	// Public answers with a new message everyone sees.
	Public
	// Private answers with a message only the user sees.
	Private
)

// Reply is the answer to a request.
type Reply struct {
	Kind    ReplyKind
	Message Message
}
