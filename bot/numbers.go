package bot

import (
	"strings"
	"time"

	textlang "golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/number"

	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/render"
)

// formatDecimal writes n with one decimal the way lang writes numbers
// (12.5, 12,5), by CLDR through golang.org/x/text.
func formatDecimal(lang string, n float64) string {
	p := message.NewPrinter(textlang.Make(language(lang)))
	return p.Sprint(number.Decimal(n, number.MinFractionDigits(1), number.MaxFractionDigits(1), number.NoSeparator()))
}

// formatPercent writes a fraction (0.57) as a whole percentage with the
// catalog's pattern for lang (57%, 57 %).
func formatPercent(lang string, f float64) string {
	return tr(lang, locales.FormatPercent, int(f*100+0.5))
}

// chartDates returns the rating chart's date labels in lang: day and month
// name by the catalog (14 Mar, 14. Mär.), or the time of day for a chart of
// less than two days.
func chartDates(lang string) render.DateLabel {
	months := strings.Fields(tr(lang, locales.DateMonths))
	return func(t time.Time, short bool) string {
		if short {
			return t.Format("15:04")
		}
		month := t.Month().String()[:3]
		if len(months) == 12 {
			month = months[t.Month()-1]
		}
		return tr(lang, locales.DateAxis, t.Day(), month)
	}
}
