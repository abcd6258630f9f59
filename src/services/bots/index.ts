/** Bot accounts: registration, keys, and playing as a bot's profile. */
export { BotService, type AuthedBot } from "./service";
export { ChallengeBotBody, ListBotsQuery, RegisterBotBody } from "./schemas";
export { BotStreamHub, type BotEvent } from "./stream-hub";
export { botKeyOf, isBotId } from "../../shared/secrets";
export { BotDirectory } from "./directory";
export { BotRevocation } from "./revocation";
