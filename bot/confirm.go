package bot

import (
	"github.com/bwmarrin/discordgo"

	"github.com/malefiz-discord/malefiz/bot/locales"
	"github.com/malefiz-discord/malefiz/store"
)

// askResign answers /malefiz resign (or leave) in a running game privately
// with the choice: Resign, or Keep playing. Nothing changes until Resign.
func askResign(r *request, sg *store.Game) error {
	if !seated(r.userID)(sg) {
		return refuse(locales.ErrNotInGame)
	}
	cid := func(a Action) string { return CustomID{Action: a, Game: sg.ID}.String() }
	return r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: tr(r.lang, locales.ResignAsk, sg.ID), Flags: discordgo.MessageFlagsEphemeral,
			AllowedMentions: &discordgo.MessageAllowedMentions{},
			Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				discordgo.Button{Label: tr(r.lang, locales.ButtonResign), Style: discordgo.DangerButton, CustomID: cid(ActResign)},
				discordgo.Button{Label: tr(r.lang, locales.ButtonKeep), Style: discordgo.SecondaryButton, CustomID: cid(ActKeep)},
			}}}}})
}

// keepPlaying answers Keep playing: the question goes, nothing changes.
func keepPlaying(r *request) error {
	return r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage,
		Data: &discordgo.InteractionResponseData{Content: tr(r.lang, locales.ResignKept), Components: []discordgo.MessageComponent{},
			Embeds: []*discordgo.MessageEmbed{}, AllowedMentions: &discordgo.MessageAllowedMentions{}}})
}
