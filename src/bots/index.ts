/** Bot accounts: registration, keys, and playing as a bot's profile. */
export { BotService, type AuthedBot } from "./service";
export { announceSeat, botAuth, botBucket, botOf, botsRouter, ChallengeBotBody, playAs, RegisterBotBody } from "./routes";
export { BotStreamHub, type BotEvent } from "./stream-hub";
export { botKeyOf, isBotId } from "../secrets";
export { BotDirectory } from "./directory";
export { botDirectoryRouter, ListBotsQuery } from "./directory-routes";
