package bot

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/bwmarrin/discordgo"
	"github.com/nicksnyder/go-i18n/v2/i18n"
	textlang "golang.org/x/text/language"
)

// msg is the key of a message in the catalog.
type msg string

// The texts live in locales/*.toml, one file per language named by its tag
// (en.toml, pt-BR.toml); en.toml is the source and the fallback. Adding a
// file adds a language: see locales/README.md.
//
//go:embed locales/*.toml
var localeFiles embed.FS

// sourceLanguage is the language every other one falls back to.
const sourceLanguage = "en"

// pluralArg names, for each message with plural forms, the argument whose
// value picks the form (by the language's CLDR rules, through go-i18n);
// fmt.Sprintf then formats the chosen form with all the arguments.
var pluralArg = map[msg]int{
	msgMinutes:      0,
	msgHours:        0,
	msgDays:         0,
	msgRowOption:    1,
	msgWinner:       1,
	msgGamesCount:   0,
	msgWinsCount:    0,
	msgLeaderEmpty:  0,
	msgLeaderFooter: 2,
	msgStreakWins:   0,
	msgStreakLosses: 0,
	msgHistoryLine:  3,
	msgReplayDone:   1,
	msgTakenOver:    1,
	msgBadBots:      0,
}

// catalog is every language's messages, loaded once from localeFiles.
var catalog = mustLoadCatalog(localeFiles)

// languages are the catalog's languages, the source first, then the rest in
// file name order.
var languages = catalog.languages

// messageCatalog holds the parsed message files.
type messageCatalog struct {
	languages  []string
	messages   map[string]map[msg]*i18n.Message
	localizers map[string]*i18n.Localizer
}

// mustLoadCatalog parses every locales/*.toml file of fsys; a file that does
// not parse is a build error, so it panics.
func mustLoadCatalog(fsys fs.FS) *messageCatalog {
	c, err := loadCatalog(fsys)
	if err != nil {
		panic(err)
	}
	return c
}

// loadCatalog parses every locales/*.toml file of fsys.
func loadCatalog(fsys fs.FS) (*messageCatalog, error) {
	bundle := i18n.NewBundle(textlang.English)
	bundle.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	files, err := fs.Glob(fsys, "locales/*.toml")
	if err != nil {
		return nil, err
	}
	c := &messageCatalog{messages: map[string]map[msg]*i18n.Message{}, localizers: map[string]*i18n.Localizer{}}
	for _, name := range files {
		buf, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		file, err := bundle.ParseMessageFileBytes(buf, name)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		lang := strings.TrimSuffix(path.Base(name), ".toml")
		texts := make(map[msg]*i18n.Message, len(file.Messages))
		for _, m := range file.Messages {
			texts[msg(m.ID)] = m
		}
		c.messages[lang] = texts
		c.localizers[lang] = i18n.NewLocalizer(bundle, lang)
		c.languages = append(c.languages, lang)
	}
	if c.messages[sourceLanguage] == nil {
		return nil, fmt.Errorf("locales: no %s.toml", sourceLanguage)
	}
	slices.SortFunc(c.languages, func(a, b string) int {
		switch {
		case a == b:
			return 0
		case a == sourceLanguage:
			return -1
		case b == sourceLanguage:
			return 1
		}
		return strings.Compare(a, b)
	})
	return c, nil
}

// language maps a Discord locale ("de", "en-US", "es-419", "pt-BR") to a
// catalog language: the locale itself, else its base language, else
// English.
func language(locale string) string {
	if _, ok := catalog.messages[locale]; ok {
		return locale
	}
	base, _, _ := strings.Cut(locale, "-")
	if _, ok := catalog.messages[base]; ok {
		return base
	}
	return sourceLanguage
}

// tr returns message key in lang, formatted with args by fmt.Sprintf; a
// message missing from lang falls back to English, an unknown key is
// returned as it is.
func tr(lang string, key msg, args ...any) string {
	text := fillRefs(language(lang), catalog.text(language(lang), key, args))
	if len(args) == 0 {
		return text
	}
	return fmt.Sprintf(text, args...)
}

// text returns key's text in lang, the plural form its count argument picks
// if it has one.
func (c *messageCatalog) text(lang string, key msg, args []any) string {
	m, ok := c.messages[lang][key]
	if !ok {
		lang = sourceLanguage
		if m, ok = c.messages[lang][key]; !ok {
			return string(key)
		}
	}
	i, plural := pluralArg[key]
	if !plural || i >= len(args) {
		return m.Other
	}
	text, err := c.localizers[lang].Localize(&i18n.LocalizeConfig{MessageID: string(key), PluralCount: args[i]})
	if err != nil && text == "" {
		return m.Other
	}
	return text
}

// discordLocalesOf returns the Discord locales that read lang.
func discordLocalesOf(lang string) []discordgo.Locale {
	var out []discordgo.Locale
	for locale := range discordgo.Locales {
		if locale != discordgo.Unknown && language(string(locale)) == lang {
			out = append(out, locale)
		}
	}
	return out
}

// localizations returns key's translations for Discord's *_localizations
// fields: one entry per Discord locale whose language is not English.
func localizations(key msg) map[discordgo.Locale]string {
	out := map[discordgo.Locale]string{}
	for _, lang := range languages[1:] {
		m, ok := catalog.messages[lang][key]
		if !ok {
			continue
		}
		for _, locale := range discordLocalesOf(lang) {
			out[locale] = fillRefs(lang, m.Other)
		}
	}
	return out
}

// nameKey is the catalog key of a command's or option's localized name.
func nameKey(name string) msg { return msg("name." + name) }

// localizeNames gives the commands, their subcommands and options their
// name_localizations (from the name.* keys; choices are localized where
// they are built).
func localizeNames(cmds []*discordgo.ApplicationCommand) {
	var walk func([]*discordgo.ApplicationCommandOption)
	walk = func(opts []*discordgo.ApplicationCommandOption) {
		for _, o := range opts {
			o.NameLocalizations = localizations(nameKey(o.Name))
			walk(o.Options)
		}
	}
	for _, c := range cmds {
		names := localizations(nameKey(c.Name))
		c.NameLocalizations = &names
		walk(c.Options)
	}
}

// levelName and levelHint are the catalog keys of a computer level's name
// and one-line description.
func levelName(level string) msg { return msg("level." + level) }
func levelHint(level string) msg { return msg("level." + level + ".hint") }

// Message keys.
const (
	msgCmdMalefiz     msg = "cmd.malefiz"
	msgCmdNew         msg = "cmd.new"
	msgCmdJoin        msg = "cmd.join"
	msgCmdLeave       msg = "cmd.leave"
	msgCmdStart       msg = "cmd.start"
	msgCmdBoard       msg = "cmd.board"
	msgCmdResign      msg = "cmd.resign"
	msgCmdCancel      msg = "cmd.cancel"
	msgCmdRules       msg = "cmd.rules"
	msgCmdHelp        msg = "cmd.help"
	msgOptSeats       msg = "opt.seats"
	msgOptBots        msg = "opt.bots"
	msgOptLevel       msg = "opt.level"
	msgOptTurnTimeout msg = "opt.turn_timeout"
	msgOptSixAgain    msg = "opt.six_again"
	msgOptSafeRow2    msg = "opt.safe_row_2"
	msgTimeout5m      msg = "timeout.5m"
	msgTimeout15m     msg = "timeout.15m"
	msgTimeout1h      msg = "timeout.1h"
	msgTimeout6h      msg = "timeout.6h"
	msgTimeout12h     msg = "timeout.12h"
	msgTimeout24h     msg = "timeout.24h"
	msgTimeout3d      msg = "timeout.3d"
	msgTimeout7d      msg = "timeout.7d"

	msgRed    msg = "color.red"
	msgGreen  msg = "color.green"
	msgYellow msg = "color.yellow"
	msgBlue   msg = "color.blue"
	msgHome   msg = "home"

	msgLobbyTitle       msg = "lobby.title"
	msgLobbyStarted     msg = "lobby.started"
	msgLobbyClosed      msg = "lobby.closed"
	msgLobbyClosedEmpty msg = "lobby.closed_empty"
	msgHostLine         msg = "lobby.host"
	msgFreeSeat         msg = "lobby.free_seat"
	msgRulesLine        msg = "lobby.rules"
	msgRulesStandard    msg = "lobby.rules_standard"
	msgRuleSixAgain     msg = "lobby.rule_six_again"
	msgRuleSafeRow2     msg = "lobby.rule_safe_row_2"
	msgTimeoutLine      msg = "lobby.timeout"
	msgJoinButton       msg = "button.join"
	msgLeaveButton      msg = "button.leave"
	msgStartButton      msg = "button.start"
	msgCancelButton     msg = "button.cancel"
	msgAddComputer      msg = "button.add_computer"
	msgRollButton       msg = "button.roll"
	msgBackButton       msg = "button.back"
	msgJoined           msg = "lobby.joined"
	msgLeft             msg = "lobby.left"
	msgComputerAdded    msg = "lobby.computer_added"
	msgStarted          msg = "lobby.started_reply"
	msgComputerNamed    msg = "computer"
	msgReplacedBy       msg = "computer.replacing"
	msgGameFooter       msg = "game.footer"
	msgMinutes          msg = "duration.minutes"
	msgHours            msg = "duration.hours"
	msgDays             msg = "duration.days"

	msgTurnTitle     msg = "turn.title"
	msgTurnPrefix    msg = "turn.prefix"
	msgFirstPlayer   msg = "turn.first"
	msgPromptRoll    msg = "turn.prompt_roll"
	msgPromptMove    msg = "turn.prompt_move"
	msgPromptPawn    msg = "turn.prompt_pawn"
	msgPromptPlace   msg = "turn.prompt_place"
	msgPickRow       msg = "turn.pick_row"
	msgPickSquare    msg = "turn.pick_square"
	msgRowOption     msg = "turn.row_option"
	msgDeadline      msg = "turn.deadline"
	msgRolled        msg = "turn.rolled"
	msgNoMove        msg = "turn.no_move"
	msgCaptured      msg = "turn.captured"
	msgBarricadeTo   msg = "turn.barricade_to"
	msgReachedGoal   msg = "turn.reached_goal"
	msgLeftGame      msg = "turn.left_game"
	msgWinner        msg = "game.winner"
	msgWinnerForfeit msg = "game.winner_forfeit"
	msgResigned      msg = "game.resigned"
	msgCancelledBy   msg = "game.cancelled_by"

	msgUnknownCommand     msg = "err.unknown_command"
	msgUnknownButton      msg = "err.unknown_button"
	msgGuildOnly          msg = "err.guild_only"
	msgNoSuchGame         msg = "err.no_such_game"
	msgNoGameHere         msg = "err.no_game_here"
	msgChannelBusy        msg = "err.channel_busy"
	msgBadSeats           msg = "err.bad_seats"
	msgBadBots            msg = "err.bad_bots"
	msgBadLevel           msg = "err.bad_level"
	msgBadTimeout         msg = "err.bad_timeout"
	msgBadPlace           msg = "err.bad_place"
	msgNotALobby          msg = "err.not_a_lobby"
	msgAlreadySeated      msg = "err.already_seated"
	msgLobbyFull          msg = "err.lobby_full"
	msgNotInGame          msg = "err.not_in_game"
	msgAlreadyStarted     msg = "err.already_started"
	msgNotStarted         msg = "err.not_started"
	msgGameEnded          msg = "err.game_ended"
	msgGameOver           msg = "err.game_over"
	msgOnlyHostStarts     msg = "err.only_host_starts"
	msgOnlyHostCancels    msg = "err.only_host_cancels"
	msgNeedTwo            msg = "err.need_two"
	msgOldButton          msg = "err.old_button"
	msgNotYourTurn        msg = "err.not_your_turn"
	msgAlreadyDone        msg = "err.already_done"
	msgTooLate            msg = "err.too_late"
	msgMissingPermissions msg = "err.missing_permissions"
	msgInternalError      msg = "err.internal"
	msgNothingChanged     msg = "err.nothing_changed"
	msgForeignButton      msg = "err.foreign_button"

	msgLobbyExpired msg = "timer.lobby_expired"
	msgReminder     msg = "timer.reminder"
	msgTimedOutWho  msg = "timer.timed_out_who"
	msgTakenOver    msg = "timer.taken_over"

	msgCmdLeaderboard    msg = "cmd.leaderboard"
	msgCmdStats          msg = "cmd.stats"
	msgCmdHistory        msg = "cmd.history"
	msgCmdReplay         msg = "cmd.replay"
	msgCmdSettings       msg = "cmd.settings"
	msgOptPeriod         msg = "opt.period"
	msgOptPage           msg = "opt.page"
	msgOptUser           msg = "opt.user"
	msgOptGame           msg = "opt.game"
	msgOptDefaultTimeout msg = "opt.default_timeout"
	msgOptReminders      msg = "opt.reminders"
	msgPeriodAll         msg = "period.all"
	msgPeriod30          msg = "period.30d"
	msgLeaderTitle       msg = "leader.title"
	msgLeaderLine        msg = "leader.line"
	msgLeaderEmpty       msg = "leader.empty"
	msgLeaderFooter      msg = "leader.footer"
	msgNoStats           msg = "stats.none"
	msgStatsTitle        msg = "stats.title"
	msgStatRating        msg = "stats.rating"
	msgStatGames         msg = "stats.games"
	msgStatWins          msg = "stats.wins"
	msgStatCaptures      msg = "stats.captures"
	msgStatBarricades    msg = "stats.barricades"
	msgStatAvgTurns      msg = "stats.avg_turns"
	msgStatFastest       msg = "stats.fastest"
	msgStatStreak        msg = "stats.streak"
	msgStatColor         msg = "stats.color"
	msgStreakNone        msg = "stats.streak_none"
	msgStreakWins        msg = "stats.streak_wins"
	msgStreakLosses      msg = "stats.streak_losses"
	msgHistoryTitle      msg = "history.title"
	msgHistoryLine       msg = "history.line"
	msgHistoryEmpty      msg = "history.empty"
	msgForfeitMark       msg = "history.forfeit"
	msgReplayDone        msg = "replay.done"
	msgNeedManageServer  msg = "err.need_manage_server"
	msgSettingsNow       msg = "settings.now"
	msgSettingsSaved     msg = "settings.saved"
	msgOn                msg = "on"
	msgOff               msg = "off"

	msgCardTitle     msg = "card.title"
	msgCardTurn      msg = "card.turn"
	msgCardToGo      msg = "card.to_go"
	msgCardLeft      msg = "card.left"
	msgCardThread    msg = "card.thread"
	msgThreadName    msg = "thread.name"
	msgLineUp        msg = "thread.line_up"
	msgNoThreads     msg = "lobby.no_threads"
	msgWhichGame     msg = "err.which_game"
	msgJumpToTurn    msg = "board.jump"
	msgJumpToLobby   msg = "board.jump_lobby"
	msgOthersRoll    msg = "board.others_roll"
	msgOthersMove    msg = "board.others_move"
	msgPlayedItself  msg = "turn.played_itself"
	msgOptRoll       msg = "opt.roll"
	msgOptThreads    msg = "opt.threads"
	msgRollAuto      msg = "roll.auto"
	msgRollButtonOpt msg = "roll.button"
	msgRollLine      msg = "lobby.roll"

	msgRematchButton msg = "button.rematch"
	msgRematchOpened msg = "rematch.opened"
	msgRematchJoined msg = "rematch.joined"
	msgNoRematch     msg = "err.no_rematch"

	msgAskResign     msg = "resign.ask"
	msgResignButton  msg = "button.resign"
	msgKeepButton    msg = "button.keep"
	msgKeptPlaying   msg = "resign.kept"
	msgVoteOpen      msg = "err.vote_open"
	msgVoteAsked     msg = "vote.asked"
	msgVoteText      msg = "vote.text"
	msgVoteAgreed    msg = "vote.agreed"
	msgVoteYes       msg = "button.vote_yes"
	msgVoteNo        msg = "button.vote_no"
	msgVoteClosed    msg = "vote.closed"
	msgVoteRefused   msg = "vote.refused"
	msgVoteCancelled msg = "vote.cancelled"
	msgNotYourVote   msg = "err.not_your_vote"

	msgCmdGames       msg = "cmd.games"
	msgCmdNotify      msg = "cmd.notify"
	msgOptDM          msg = "opt.dm"
	msgNotifyOn       msg = "notify.on"
	msgNotifyOff      msg = "notify.off"
	msgDMRefused      msg = "notify.refused"
	msgDMTurn         msg = "dm.turn"
	msgDMTurnRolled   msg = "dm.turn_rolled"
	msgDMReminder     msg = "dm.reminder"
	msgDMEnded        msg = "dm.ended"
	msgGamesTitle     msg = "games.title"
	msgNoGames        msg = "games.none"
	msgGamesLobby     msg = "games.lobby"
	msgGamesYourTurn  msg = "games.your_turn"
	msgGamesTheirTurn msg = "games.their_turn"

	msgGamesCount msg = "leader.games"
	msgWinsCount  msg = "leader.wins"
	msgPercent    msg = "format.percent"
	msgMonths     msg = "date.months"
	msgAxisDate   msg = "date.axis"

	msgRulesText msg = "text.rules"
	msgHelpText  msg = "text.help"
)
