// The entry of the bundle activity/static/discord-sdk.js: the parts of
// Discord's Embedded App SDK the Activity page uses, on window.DiscordEmbedded.
export { DiscordSDK, DiscordSDKMock } from "@discord/embedded-app-sdk";
