package bot

import (
	"encoding/json"

	"github.com/bwmarrin/discordgo"
)

// decodeInteraction decodes an interaction as Discord POSTs it to the
// interactions endpoint, as discordgo.Interaction's UnmarshalJSON does
// except for the message a component was used on: of it only what the bot
// reads is kept (its ID, channel, author and flags; see table.CheckOrigin), and
// its components, embeds and attachments are skipped rather than built.
// Building a turn card's layout components was most of the 4 % of the
// bot's CPU per click that decoding interactions took (BenchmarkClickRate's
// profile).
func decodeInteraction(body []byte) (*discordgo.Interaction, error) {
	var w wireInteraction
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, err
	}
	i := discordgo.Interaction(w.interactionFields)
	if m := w.Message; m != nil {
		i.Message = &discordgo.Message{ID: m.ID, ChannelID: m.ChannelID, GuildID: m.GuildID, Author: m.Author, Flags: m.Flags}
	}
	var err error
	switch i.Type {
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete:
		var v discordgo.ApplicationCommandInteractionData
		err = json.Unmarshal(w.Data, &v)
		i.Data = v
	case discordgo.InteractionMessageComponent:
		var v discordgo.MessageComponentInteractionData
		err = json.Unmarshal(w.Data, &v)
		i.Data = v
	case discordgo.InteractionModalSubmit:
		var v discordgo.ModalSubmitInteractionData
		err = json.Unmarshal(w.Data, &v)
		i.Data = v
	}
	if err != nil {
		return nil, err
	}
	return &i, nil
}

// interactionFields are discordgo.Interaction's fields without its
// UnmarshalJSON.
type interactionFields discordgo.Interaction

// wireInteraction is an interaction's JSON: its data is decoded by type
// afterwards, and its message (shallower than interactionFields' own, so
// it wins) in part.
type wireInteraction struct {
	interactionFields
	Data    json.RawMessage `json:"data"`
	Message *wireMessage    `json:"message"`
}

// wireMessage is what decodeInteraction keeps of an interaction's message.
type wireMessage struct {
	ID        string                 `json:"id"`
	ChannelID string                 `json:"channel_id"`
	GuildID   string                 `json:"guild_id"`
	Author    *discordgo.User        `json:"author"`
	Flags     discordgo.MessageFlags `json:"flags"`
}
