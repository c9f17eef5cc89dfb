package bot

import (
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// msg is the key of a message in the catalog.
type msg string

// languages are the languages of the catalog; the first is the fallback.
var languages = []string{"en", "de"}

// language maps a Discord locale ("de", "en-US", "pt-BR") to a catalog language.
func language(locale string) string {
	base, _, _ := strings.Cut(locale, "-")
	for _, l := range languages {
		if l == base {
			return l
		}
	}
	return languages[0]
}

// tr returns message key in lang, formatted with args; a missing
// translation falls back to English.
func tr(lang string, key msg, args ...any) string {
	texts, ok := catalog[key]
	if !ok {
		return string(key)
	}
	text, ok := texts[language(lang)]
	if !ok {
		text = texts[languages[0]]
	}
	if len(args) == 0 {
		return text
	}
	return fmt.Sprintf(text, args...)
}

// localizations returns key's translations for Discord's *_localizations
// fields (every language but the English default).
func localizations(key msg) map[discordgo.Locale]string {
	out := map[discordgo.Locale]string{}
	for _, l := range languages[1:] {
		if text, ok := catalog[key][l]; ok {
			out[discordgo.Locale(l)] = text
		}
	}
	return out
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

	msgLobbyExpired    msg = "timer.lobby_expired"
	msgReminder        msg = "timer.reminder"
	msgTimedOut        msg = "timer.timed_out"
	msgTimedOutSummary msg = "timer.timed_out_summary"
	msgTakenOver       msg = "timer.taken_over"

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

	msgRulesText msg = "text.rules"
	msgHelpText  msg = "text.help"
)

// catalog holds every text a player reads, by key and language.
var catalog = map[msg]map[string]string{
	msgCmdMalefiz:     {"en": "Play Malefiz (Barricade) in this channel", "de": "Malefiz in diesem Kanal spielen"},
	msgCmdNew:         {"en": "Open a new game in this channel", "de": "Ein neues Spiel in diesem Kanal eröffnen"},
	msgCmdJoin:        {"en": "Take a seat in this channel's game", "de": "Einen Platz im Spiel dieses Kanals einnehmen"},
	msgCmdLeave:       {"en": "Give up your seat", "de": "Deinen Platz aufgeben"},
	msgCmdStart:       {"en": "Start the game (host)", "de": "Das Spiel starten (Gastgeber)"},
	msgCmdBoard:       {"en": "Show the board again", "de": "Das Spielbrett erneut zeigen"},
	msgCmdResign:      {"en": "Leave the running game", "de": "Das laufende Spiel verlassen"},
	msgCmdCancel:      {"en": "End the game without a result (host or moderators)", "de": "Das Spiel ohne Ergebnis beenden (Gastgeber oder Moderation)"},
	msgCmdRules:       {"en": "The rules in short", "de": "Die Regeln in Kürze"},
	msgCmdHelp:        {"en": "How to play with this bot", "de": "So spielst du mit diesem Bot"},
	msgOptSeats:       {"en": "Number of seats, 2 to 4 (default 4)", "de": "Anzahl der Plätze, 2 bis 4 (Standard 4)"},
	msgOptBots:        {"en": "Computer players to seat right away", "de": "Computerspieler, die sofort Platz nehmen"},
	msgOptLevel:       {"en": "Level of those computer players", "de": "Stärke dieser Computerspieler"},
	msgOptTurnTimeout: {"en": "Time for each turn (default: the server's)", "de": "Zeit pro Zug (Standard: die des Servers)"},
	msgOptSixAgain:    {"en": "House rule: roll again after moving on a 6", "de": "Hausregel: nach einem Zug mit der 6 noch einmal würfeln"},
	msgOptSafeRow2:    {"en": "House rule: no barricades on row 2", "de": "Hausregel: keine Sperrsteine auf Reihe 2"},
	msgTimeout5m:      {"en": "5 minutes", "de": "5 Minuten"},
	msgTimeout15m:     {"en": "15 minutes", "de": "15 Minuten"},
	msgTimeout1h:      {"en": "1 hour", "de": "1 Stunde"},
	msgTimeout6h:      {"en": "6 hours", "de": "6 Stunden"},
	msgTimeout12h:     {"en": "12 hours", "de": "12 Stunden"},
	msgTimeout24h:     {"en": "24 hours", "de": "24 Stunden"},
	msgTimeout3d:      {"en": "3 days", "de": "3 Tage"},
	msgTimeout7d:      {"en": "7 days", "de": "7 Tage"},

	msgRed:    {"en": "Red", "de": "Rot"},
	msgGreen:  {"en": "Green", "de": "Grün"},
	msgYellow: {"en": "Yellow", "de": "Gelb"},
	msgBlue:   {"en": "Blue", "de": "Blau"},
	msgHome:   {"en": "home", "de": "Haus"},

	"level.easy":          {"en": "easy", "de": "leicht"},
	"level.normal":        {"en": "normal", "de": "normal"},
	"level.hard":          {"en": "hard", "de": "schwer"},
	"level.greedy":        {"en": "greedy", "de": "gierig"},
	"level.easy.hint":     {"en": "Plays with little foresight", "de": "Spielt ohne viel Voraussicht"},
	"level.normal.hint":   {"en": "A sound, steady player", "de": "Ein solider Gegner"},
	"level.hard.hint":     {"en": "Looks ahead; hard to beat", "de": "Denkt voraus; schwer zu schlagen"},
	"level.greedy.hint":   {"en": "Always races ahead", "de": "Rennt immer nach vorn"},
	msgLobbyTitle:         {"en": "Malefiz — a new game is open", "de": "Malefiz — ein neues Spiel ist offen"},
	msgLobbyStarted:       {"en": "Malefiz — the game has started", "de": "Malefiz — das Spiel läuft"},
	msgLobbyClosed:        {"en": "Malefiz — this game is closed", "de": "Malefiz — dieses Spiel ist beendet"},
	msgLobbyClosedEmpty:   {"en": "Everyone left, so the lobby is closed.", "de": "Alle sind gegangen, die Runde ist geschlossen."},
	msgHostLine:           {"en": "Host: %s", "de": "Gastgeber: %s"},
	msgFreeSeat:           {"en": "*free seat*", "de": "*freier Platz*"},
	msgRulesLine:          {"en": "Rules: %s", "de": "Regeln: %s"},
	msgRulesStandard:      {"en": "standard", "de": "Standard"},
	msgRuleSixAgain:       {"en": "roll again on a 6", "de": "bei 6 noch einmal würfeln"},
	msgRuleSafeRow2:       {"en": "no barricades on row 2", "de": "keine Sperrsteine auf Reihe 2"},
	msgTimeoutLine:        {"en": "Time per turn: %s", "de": "Zeit pro Zug: %s"},
	msgJoinButton:         {"en": "Join", "de": "Mitspielen"},
	msgLeaveButton:        {"en": "Leave", "de": "Verlassen"},
	msgStartButton:        {"en": "Start", "de": "Starten"},
	msgCancelButton:       {"en": "Cancel", "de": "Abbrechen"},
	msgAddComputer:        {"en": "Add a computer player…", "de": "Computerspieler hinzufügen…"},
	msgRollButton:         {"en": "Roll", "de": "Würfeln"},
	msgBackButton:         {"en": "Back", "de": "Zurück"},
	msgJoined:             {"en": "You have a seat. The host starts the game.", "de": "Du hast einen Platz. Der Gastgeber startet das Spiel."},
	msgLeft:               {"en": "You left the lobby.", "de": "Du hast die Runde verlassen."},
	msgComputerAdded:      {"en": "A computer player took a seat.", "de": "Ein Computerspieler hat Platz genommen."},
	msgStarted:            {"en": "The game has started.", "de": "Das Spiel hat begonnen."},
	msgComputerNamed:      {"en": "Computer (%s)", "de": "Computer (%s)"},
	msgReplacedBy:         {"en": "%s, played by %s", "de": "%s, gespielt von %s"},
	msgGameFooter:         {"en": "Malefiz · game #%d", "de": "Malefiz · Spiel #%d"},
	msgMinutes:            {"en": "%d minutes", "de": "%d Minuten"},
	msgHours:              {"en": "%d hours", "de": "%d Stunden"},
	msgDays:               {"en": "%d days", "de": "%d Tage"},
	msgTurnTitle:          {"en": "Turn %d · %s", "de": "Zug %d · %s"},
	msgTurnPrefix:         {"en": "**Turn %d** ·", "de": "**Zug %d** ·"},
	msgFirstPlayer:        {"en": "The die decided: %s begins.", "de": "Der Würfel hat entschieden: %s beginnt."},
	msgPromptRoll:         {"en": "Your turn — roll the die!", "de": "Du bist dran — würfle!"},
	msgPromptMove:         {"en": "You rolled a **%d**. Choose your move:", "de": "Du hast eine **%d** gewürfelt. Wähle deinen Zug:"},
	msgPromptPawn:         {"en": "You rolled a **%d**. Which pawn do you move?", "de": "Du hast eine **%d** gewürfelt. Welche Figur ziehst du?"},
	msgPromptPlace:        {"en": "%s captures a barricade! Where should it go? Pick a suggestion or any square by row.", "de": "%s schlägt einen Sperrstein! Wohin damit? Nimm einen Vorschlag oder ein beliebiges Feld nach Reihe."},
	msgPickRow:            {"en": "Or pick a row…", "de": "Oder wähle eine Reihe…"},
	msgPickSquare:         {"en": "…then a square of row %d", "de": "…dann ein Feld in Reihe %d"},
	msgRowOption:          {"en": "Row %d (%d squares)", "de": "Reihe %d (%d Felder)"},
	msgDeadline:           {"en": "Time runs out <t:%d:R>.", "de": "Die Zeit läuft ab <t:%d:R>."},
	msgRolled:             {"en": "%s rolled %d:", "de": "%s würfelt %d:"},
	msgNoMove:             {"en": "no legal move, the turn passes.", "de": "kein Zug möglich, weiter geht's."},
	msgCaptured:           {"en": "captures %s", "de": "schlägt %s"},
	msgBarricadeTo:        {"en": "barricade to %s", "de": "Sperrstein nach %s"},
	msgReachedGoal:        {"en": "on the goal!", "de": "im Ziel!"},
	msgLeftGame:           {"en": "%s left the game.", "de": "%s hat das Spiel verlassen."},
	msgWinner:             {"en": "%s wins after %d turns!", "de": "%s gewinnt nach %d Zügen!"},
	msgWinnerForfeit:      {"en": "%s wins: everyone else left.", "de": "%s gewinnt: alle anderen sind gegangen."},
	msgResigned:           {"en": "%s left the game; their pawns leave the board.", "de": "%s hat das Spiel verlassen; die Figuren verlassen das Brett."},
	msgCancelledBy:        {"en": "The game was cancelled by %s.", "de": "Das Spiel wurde von %s abgebrochen."},
	msgUnknownCommand:     {"en": "I don't know that command.", "de": "Diesen Befehl kenne ich nicht."},
	msgUnknownButton:      {"en": "That button is not one of mine any more.", "de": "Dieser Knopf gehört zu keinem laufenden Spiel."},
	msgGuildOnly:          {"en": "Malefiz is played in a server channel.", "de": "Malefiz wird in einem Serverkanal gespielt."},
	msgNoSuchGame:         {"en": "That game no longer exists.", "de": "Dieses Spiel gibt es nicht mehr."},
	msgNoGameHere:         {"en": "There is no game in this channel — /malefiz new opens one.", "de": "In diesem Kanal läuft kein Spiel — /malefiz new eröffnet eins."},
	msgChannelBusy:        {"en": "A game is already running here — /malefiz board shows it.", "de": "Hier läuft schon ein Spiel — /malefiz board zeigt es."},
	msgBadSeats:           {"en": "A game has 2 to 4 seats.", "de": "Ein Spiel hat 2 bis 4 Plätze."},
	msgBadBots:            {"en": "At most %d computer players: someone has to play!", "de": "Höchstens %d Computerspieler: Einer muss ja selbst spielen!"},
	msgBadLevel:           {"en": "Computer players are easy, normal or hard.", "de": "Computerspieler sind leicht, normal oder schwer."},
	msgBadTimeout:         {"en": "A turn lasts from 5 minutes to 7 days.", "de": "Ein Zug dauert zwischen 5 Minuten und 7 Tagen."},
	msgBadPlace:           {"en": "A barricade can't go there.", "de": "Dort darf kein Sperrstein hin."},
	msgNotALobby:          {"en": "This game has already started or ended.", "de": "Dieses Spiel hat schon begonnen oder ist vorbei."},
	msgAlreadySeated:      {"en": "You already have a seat.", "de": "Du hast schon einen Platz."},
	msgLobbyFull:          {"en": "Every seat is taken.", "de": "Alle Plätze sind besetzt."},
	msgNotInGame:          {"en": "You are not in this game.", "de": "Du spielst in diesem Spiel nicht mit."},
	msgAlreadyStarted:     {"en": "The game has already started.", "de": "Das Spiel hat schon begonnen."},
	msgNotStarted:         {"en": "The game has not started yet.", "de": "Das Spiel hat noch nicht begonnen."},
	msgGameEnded:          {"en": "This game is over.", "de": "Dieses Spiel ist vorbei."},
	msgGameOver:           {"en": "This game is over.", "de": "Dieses Spiel ist vorbei."},
	msgOnlyHostStarts:     {"en": "Only the host can start.", "de": "Nur der Gastgeber kann starten."},
	msgOnlyHostCancels:    {"en": "Only the host or a moderator can cancel the game.", "de": "Nur der Gastgeber oder die Moderation kann das Spiel abbrechen."},
	msgNeedTwo:            {"en": "At least two seats must be filled.", "de": "Mindestens zwei Plätze müssen besetzt sein."},
	msgOldButton:          {"en": "That button belongs to an earlier turn.", "de": "Dieser Knopf gehört zu einem früheren Zug."},
	msgNotYourTurn:        {"en": "It is not your turn.", "de": "Du bist nicht am Zug."},
	msgAlreadyDone:        {"en": "That was already done.", "de": "Das ist schon geschehen."},
	msgTooLate:            {"en": "Someone was quicker — nothing changed.", "de": "Jemand war schneller — nichts hat sich geändert."},
	msgMissingPermissions: {"en": "I am missing permissions in this channel: I need View Channel, Send Messages, Embed Links and Attach Files.", "de": "Mir fehlen Rechte in diesem Kanal: Ich brauche Kanal ansehen, Nachrichten senden, Links einbetten und Dateien anhängen."},
	msgInternalError:      {"en": "Something went wrong on my side; the game is safe. Please try again.", "de": "Bei mir ist etwas schiefgegangen; das Spiel ist sicher. Bitte versuch es noch einmal."},
	msgNothingChanged:     {"en": "Something went wrong on my side; nothing was changed. Please try again.", "de": "Bei mir ist etwas schiefgegangen; es wurde nichts geändert. Bitte versuch es noch einmal."},
	msgForeignButton:      {"en": "That button does not belong to a game here.", "de": "Dieser Knopf gehört zu keinem Spiel hier."},
	msgLobbyExpired:       {"en": "This lobby closed: nobody started it within 24 hours.", "de": "Diese Runde wurde geschlossen: Niemand hat sie innerhalb von 24 Stunden gestartet."},
	msgReminder:           {"en": "⏰ %s, it's your turn in Malefiz game #%d — time runs out <t:%d:R>.", "de": "⏰ %s, du bist in Malefiz-Spiel #%d am Zug — die Zeit läuft ab <t:%d:R>."},
	msgTimedOut:           {"en": "⏰ %s ran out of time; the computer played the turn.", "de": "⏰ %s hatte keine Zeit mehr; der Computer hat den Zug gespielt."},
	msgTimedOutSummary:    {"en": "**Turn %d** · %s ran out of time.", "de": "**Zug %d** · %s hatte keine Zeit mehr."},
	msgTakenOver:          {"en": "🤖 %s timed out %d times in a row: a computer plays for them from now on (/malefiz resign leaves the game).", "de": "🤖 %s hat %d Mal in Folge die Zeit überschritten: Ab jetzt spielt ein Computer (/malefiz resign verlässt das Spiel)."},
	msgCmdLeaderboard:     {"en": "Who is best on this server", "de": "Wer ist der Beste auf diesem Server"},
	msgCmdStats:           {"en": "A player's record", "de": "Die Bilanz eines Spielers"},
	msgCmdHistory:         {"en": "The last games on this server", "de": "Die letzten Spiele auf diesem Server"},
	msgCmdReplay:          {"en": "Watch a game again as an animation", "de": "Ein Spiel als Animation noch einmal ansehen"},
	msgCmdSettings:        {"en": "Server settings for games (Manage Server)", "de": "Servereinstellungen für Spiele (Server verwalten)"},
	msgOptPeriod:          {"en": "All time or the last 30 days", "de": "Gesamt oder die letzten 30 Tage"},
	msgOptPage:            {"en": "Page of the ranking", "de": "Seite der Rangliste"},
	msgOptUser:            {"en": "Whose record (default: yours)", "de": "Wessen Bilanz (Standard: deine)"},
	msgOptGame:            {"en": "The game's number (#N in its messages)", "de": "Die Nummer des Spiels (#N in seinen Nachrichten)"},
	msgOptDefaultTimeout:  {"en": "Default time per turn for new games", "de": "Standardzeit pro Zug für neue Spiele"},
	msgOptReminders:       {"en": "Remind players halfway through their turn", "de": "Spieler zur Hälfte ihrer Zugzeit erinnern"},
	msgPeriodAll:          {"en": "all time", "de": "gesamt"},
	msgPeriod30:           {"en": "last 30 days", "de": "letzte 30 Tage"},
	msgLeaderTitle:        {"en": "🏆 Malefiz leaderboard — %s", "de": "🏆 Malefiz-Rangliste — %s"},
	msgLeaderLine:         {"en": "%s %s — **%d** · %d games · %d wins (%s)", "de": "%s %s — **%d** · %d Spiele · %d Siege (%s)"},
	msgLeaderEmpty:        {"en": "Nobody has played %d games yet.", "de": "Noch niemand hat %d Spiele gespielt."},
	msgLeaderFooter:       {"en": "Page %d of %d · ranked after %d games · Elo rating", "de": "Seite %d von %d · Rang ab %d Spielen · Elo-Wertung"},
	msgNoStats:            {"en": "%s has not finished a game on this server yet.", "de": "%s hat auf diesem Server noch kein Spiel beendet."},
	msgStatsTitle:         {"en": "📊 %s", "de": "📊 %s"},
	msgStatRating:         {"en": "Rating (rank)", "de": "Wertung (Rang)"},
	msgStatGames:          {"en": "Games", "de": "Spiele"},
	msgStatWins:           {"en": "Wins", "de": "Siege"},
	msgStatCaptures:       {"en": "Captures made / suffered", "de": "Geschlagen / verloren"},
	msgStatBarricades:     {"en": "Barricades moved", "de": "Sperrsteine versetzt"},
	msgStatAvgTurns:       {"en": "Turns to win (average)", "de": "Züge bis zum Sieg (Schnitt)"},
	msgStatFastest:        {"en": "Fastest win (turns)", "de": "Schnellster Sieg (Züge)"},
	msgStatStreak:         {"en": "Current streak", "de": "Aktuelle Serie"},
	msgStatColor:          {"en": "Favourite colour", "de": "Lieblingsfarbe"},
	msgStreakNone:         {"en": "—", "de": "—"},
	msgStreakWins:         {"en": "%d won", "de": "%d gewonnen"},
	msgStreakLosses:       {"en": "%d lost", "de": "%d verloren"},
	msgHistoryTitle:       {"en": "📜 Last games", "de": "📜 Letzte Spiele"},
	msgHistoryLine:        {"en": "#%d · 🏆 %s vs %s · %d turns · <t:%d:d>", "de": "#%d · 🏆 %s gegen %s · %d Züge · <t:%d:d>"},
	msgHistoryEmpty:       {"en": "No game has finished on this server yet.", "de": "Auf diesem Server wurde noch kein Spiel beendet."},
	msgForfeitMark:        {"en": "(by forfeit)", "de": "(kampflos)"},
	msgReplayDone:         {"en": "🎬 Game #%d, %d turns.", "de": "🎬 Spiel #%d, %d Züge."},
	msgNeedManageServer:   {"en": "Only members with Manage Server can change the settings.", "de": "Nur Mitglieder mit „Server verwalten“ können die Einstellungen ändern."},
	msgSettingsNow:        {"en": "Settings: %s per turn, reminders %s.", "de": "Einstellungen: %s pro Zug, Erinnerungen %s."},
	msgSettingsSaved:      {"en": "Saved. New games get %s per turn; reminders %s.", "de": "Gespeichert. Neue Spiele haben %s pro Zug; Erinnerungen %s."},
	msgOn:                 {"en": "on", "de": "an"},
	msgOff:                {"en": "off", "de": "aus"},
	msgRulesText: {
		"en": "**Malefiz in short**\n" +
			"• 2–4 players, 5 pawns each. Roll one die and move one pawn exactly that far; leaving the house counts the entry square as step 1.\n" +
			"• Move along the lines in any direction, never onto the same square twice in one move. Jump over pawns, never over barricades.\n" +
			"• End on an opponent's pawn to send it home. You can't end on your own pawn.\n" +
			"• End exactly on a barricade to capture it, then place it on any free square except the bottom row and the goal.\n" +
			"• No legal move: the turn passes. A legal move must be played.\n" +
			"• The first pawn to land exactly on the goal wins.",
		"de": "**Malefiz in Kürze**\n" +
			"• 2–4 Spieler, je 5 Figuren. Würfle und ziehe eine Figur genau so weit; beim Verlassen des Hauses zählt das Startfeld als erster Schritt.\n" +
			"• Ziehe entlang der Linien in jede Richtung, aber in einem Zug nie zweimal über dasselbe Feld. Figuren darfst du überspringen, Sperrsteine nie.\n" +
			"• Landest du auf einer fremden Figur, muss sie zurück ins Haus. Auf einer eigenen Figur darfst du nicht landen.\n" +
			"• Landest du genau auf einem Sperrstein, schlägst du ihn und setzt ihn auf ein freies Feld — nicht in die unterste Reihe und nicht ins Ziel.\n" +
			"• Kein Zug möglich: Der Nächste ist dran. Einen möglichen Zug musst du machen.\n" +
			"• Wer zuerst genau ins Ziel kommt, gewinnt.",
	},
	msgHelpText: {
		"en": "**How to play**\n" +
			"• `/malefiz new` opens a game here; others press **Join**, or add computer players. The host presses **Start**.\n" +
			"• On your turn you get a ping: press **Roll**, then pick a move button — the letters match the board.\n" +
			"• Captured a barricade? Pick a suggested square, or any square by row.\n" +
			"• `/malefiz board` shows the game again, `/malefiz resign` leaves it, `/malefiz rules` explains the rules.",
		"de": "**So wird gespielt**\n" +
			"• `/malefiz new` eröffnet hier ein Spiel; andere drücken **Mitspielen** oder fügen Computerspieler hinzu. Der Gastgeber drückt **Starten**.\n" +
			"• Bist du dran, wirst du erwähnt: Drücke **Würfeln** und wähle dann einen Zug — die Buchstaben stehen auch auf dem Brett.\n" +
			"• Sperrstein geschlagen? Nimm ein vorgeschlagenes Feld oder ein beliebiges nach Reihe.\n" +
			"• `/malefiz board` zeigt das Spiel erneut, `/malefiz resign` verlässt es, `/malefiz rules` erklärt die Regeln.",
	},
}
