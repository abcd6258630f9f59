// The REST answers the pages read, named from the client types generated from the OpenAPI document
// (clients/typescript/api-types.ts, made by `npm run client-types`). They are the contract every outside
// client is held to, so a page reads only what the document promises: a field the document leaves out is a
// type error in the page that reads it, and is added to the document (src/edges/api/openapi/), not to the page.
import type { components, operations } from "../../../clients/typescript/api-types";

type Schemas = components["schemas"];
/** The operations whose 200 answer is JSON: naming another one in Answer is a type error, not `never`. */
type JsonOk = {
  [Op in keyof operations]: operations[Op]["responses"] extends { 200: { content: { "application/json": unknown } } } ? Op : never;
}[keyof operations];
/** The JSON body of an operation's 200 answer. */
type Answer<Op extends JsonOk> = operations[Op]["responses"][200]["content"]["application/json"];

// ---- games ----------------------------------------------------------------------------------------
/** GET /games/{id}: a game's record (finished or not). */
export type GameRecord = Schemas["Game"];
/** GET /games: a page of games. */
export type GameList = Answer<"listGames">;
/** GET /games/join/{code}: a friend invite's game, before joining it. */
export type InviteStatus = Answer<"getInvite">;
/** GET /games/{id}/replay: a finished game's seed, hands and moves. */
export type Replay = Schemas["Replay"];
/** GET /games/{id}/review: the house's marks on every move of a finished game. */
export type Review = Answer<"getReview">;

/**
 * POST /games/{id}/moves's body: a move in notation or as card and square. The game room's `move` message
 * takes the same body (rooms/messages.ts validates it with the REST body's schema).
 */
export type MoveBody = NonNullable<operations["playMove"]["requestBody"]>["content"]["application/json"];

// ---- players and leaderboards ---------------------------------------------------------------------
/** GET /players/{id}: a profile with its rating and record, and the clubs it is in. */
export type Profile = Answer<"getPlayer">;
/** GET /players/{id}/ratings: a page of rating history. */
export type RatingHistory = Schemas["RatingHistory"];
/** GET /players/{id}/games: a page of a player's games. */
export type PlayerGames = Answer<"listPlayerGames">;
/** GET /players: everyone by rating, and the house's levels. */
export type PlayerLeaderboard = Answer<"playerLeaderboard">;
/** GET /clubs and GET /communities: each with its member count and leaders. */
export type ClubList = Answer<"listClubs">;
export type CommunityList = Answer<"listCommunities">;
/** GET /clubs/{id} or GET /communities/{id}: one leaderboard. */
export type Leaderboard = Answer<"getClub"> | Answer<"getCommunity">;

// ---- bots -----------------------------------------------------------------------------------------
/** GET /bots: a page of the bot directory. */
export type BotDirectory = Answer<"listBots">;
/** GET /bots/{id}: one bot, as its owner describes it. */
export type BotProfile = Schemas["Bot"];

// ---- leagues --------------------------------------------------------------------------------------
export type LeagueView = Schemas["League"];
export type LeagueListView = Answer<"listLeagues">;
export type StandingsView = Answer<"getLeagueStandings">;
export type GamesView = Answer<"getLeagueGames">;

// ---- the public log -------------------------------------------------------------------------------
/** GET /log/head: the newest signed tree head. */
export type TreeHead = Schemas["TreeHead"];
/** GET /log/key: the log's signing keys. */
export type LogKey = Schemas["LogKey"];
/** GET /log/games/{id}/proof: a game's audit path to a head. */
export type InclusionProof = Schemas["InclusionProof"];
/** GET /log/entries: a run of entries as served. */
export type LogEntries = Schemas["LogEntries"];
