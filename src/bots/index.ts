/** Bot accounts: registration, keys, and playing as a bot's profile. */
export { BotService, type AuthedBot } from "./service";
export { botAuth, botBucket, botOf, botsRouter, playAs, RegisterBotBody } from "./routes";
export { botKeyOf, isBotId } from "./ids";
