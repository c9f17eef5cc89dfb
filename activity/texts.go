package activity

import (
	"strconv"

	"github.com/malefiz-discord/malefiz/bot/locales"
)

// pageKeys are the texts the page shows by itself, by the name its script
// uses; the rest (whose turn it is, refusals, reasons) comes with each
// answer, already in the user's words.
var pageKeys = map[string]locales.Key{
	"connecting":     locales.ActivityConnecting,
	"noGame":         locales.ActivityNoGame,
	"reconnecting":   locales.ActivityReconnecting,
	"signInFailed":   locales.ActivitySignInFailed,
	"watching":       locales.ActivityWatching,
	"won":            locales.ActivityWon,
	"yourMove":       locales.ActivityYourMove,
	"yourPlace":      locales.ActivityYourPlace,
	"yourRoll":       locales.ActivityYourRoll,
	"roll":           locales.ButtonRoll,
	"back":           locales.ButtonBack,
	"notStarted":     locales.ErrNotStarted,
	"join":           locales.ButtonJoin,
	"leave":          locales.ButtonLeave,
	"start":          locales.ButtonStart,
	"newGame":        locales.CmdNew,
	"newHere":        locales.ActivityNewHere,
	"gameNo":         locales.GameFooter,
	"hint":           locales.ButtonHint,
	"removeComputer": locales.ActivityRemoveComputer,
	// The board for a screen reader and the keyboard (issue 39): the
	// squares' and homes' names, what Enter does on them, the moves
	// announced as the pictures' alt text says them.
	"boardLabel":      locales.ActivityBoardLabel,
	"square":          locales.ActivitySquare,
	"squarePawn":      locales.ActivitySquarePawn,
	"squareBarricade": locales.ActivitySquareBarricade,
	"squareGoal":      locales.ActivitySquareGoal,
	"house":           locales.ActivityHouse,
	"canMove":         locales.ActivityCanMove,
	"moveHere":        locales.ActivityMoveHere,
	"placeHere":       locales.ActivityPlaceHere,
	"moved":           locales.AltMove,
	"movedOut":        locales.AltMoveOut,
	"captured":        locales.AltCapturesPawn,
	"barricadeTo":     locales.TurnBarricadeTo,
	// The review of a finished game (issue 42): its button, the steps'
	// buttons, the arrows' tags and the card's lines, the chart.
	"review":           locales.ButtonReview,
	"reviewFirst":      locales.ReviewFirst,
	"reviewPrevious":   locales.ReviewPrevious,
	"reviewNext":       locales.ReviewNext,
	"reviewLast":       locales.ReviewLast,
	"reviewPlayed":     locales.ReviewPlayed,
	"reviewBetter":     locales.ReviewBetter,
	"reviewPlayedLine": locales.ReviewPlayedLine,
	"reviewBetterLine": locales.ReviewBetterLine,
	"reviewChances":    locales.ReviewChances,
	"reviewChart":      locales.ReviewChart,
	"reviewAccuracy":   locales.ReviewAccuracy,
	// A server's tournament (issue 40): its standings, rounds, bracket
	// and tables.
	"tourShow":          locales.ActivityTourShow,
	"tourBoard":         locales.ActivityTourBoard,
	"tourStandings":     locales.ActivityTourStandings,
	"tourRank":          locales.ActivityTourRank,
	"tourPlayer":        locales.ActivityTourPlayer,
	"tourPoints":        locales.ActivityTourPoints,
	"tourBuchholz":      locales.ActivityTourBuchholz,
	"tourSonneborn":     locales.ActivityTourSonneborn,
	"tourReached":       locales.ActivityTourReached,
	"tourGames":         locales.ActivityTourGames,
	"tourYou":           locales.ActivityTourYou,
	"tourOut":           locales.ActivityTourOut,
	"tourWithdrawn":     locales.TourWithdrawn,
	"tourSignup":        locales.ActivityTourSignup,
	"tourRunning":       locales.ActivityTourRunning,
	"tourPaused":        locales.ActivityTourPaused,
	"tourFinished":      locales.ActivityTourFinished,
	"tourCancelled":     locales.ActivityTourCancelled,
	"tourRound":         locales.ActivityTourRound,
	"tourRoundOf":       locales.ActivityTourRoundOf,
	"tourRounds":        locales.ActivityTourRounds,
	"tourBracket":       locales.ActivityTourBracket,
	"tourTable":         locales.ActivityTourTable,
	"tourToMove":        locales.ActivityTourToMove,
	"tourWaiting":       locales.ActivityTourWaiting,
	"tourGameOver":      locales.ActivityTourGameOver,
	"tourGameCancelled": locales.ActivityTourNoResult,
	"tourPlace":         locales.ActivityTourPlace,
	"tourThrough":       locales.ActivityTourThrough,
	"tourForfeit":       locales.ActivityTourForfeit,
	"tourWatch":         locales.ActivityTourWatch,
	"tourPlay":          locales.ActivityTourPlay,
	"tourBye":           locales.TourBye,
	"tourScore":         locales.TourPoints,
	"red":               locales.ColorRed,
	"green":             locales.ColorGreen,
	"yellow":            locales.ColorYellow,
	"blue":              locales.ColorBlue,
}

// pageTexts returns the page's texts in lang, with their Go verbs left
// for the script to fill (%s, %d), and lang itself as "lang" (the page's
// <html lang>).
func pageTexts(lang string) map[string]string {
	out := make(map[string]string, len(pageKeys)+1)
	file := locales.Language(lang)
	for name, key := range pageKeys {
		out[name] = locales.Tr(lang, key)
		// A counted text also goes as each of its plural forms
		// ("house.one", "house.other", …): the page picks one by the
		// language's CLDR rules, as the catalog does (counted in app.js).
		m, ok := locales.Default.Message(file, key)
		if !ok {
			m, ok = locales.Default.Message(locales.Source, key)
		}
		if !ok {
			continue
		}
		if forms := locales.Forms(m); len(forms) > 1 {
			for form, text := range forms {
				out[name+"."+form] = text
			}
		}
	}
	out["lang"] = file
	out["zeroIsOther"] = strconv.FormatBool(locales.ZeroIsOther(file))
	return out
}
