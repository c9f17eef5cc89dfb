package bot

// fillRefs fills the command, option and button placeholders of text with
// lang's names and labels (see locales.Catalog.FillRefs).
func fillRefs(lang, text string) string { return catalog.FillRefs(lang, text) }

// LocaleTexts returns every uncounted text of the catalog language lang
// ("es", "pt-BR") as its players read it, placeholders filled, by key: what
// the end-to-end tests compare the bot's answers with.
func LocaleTexts(lang string) map[string]string { return catalog.Texts(lang) }
