/** The answers of the leagues operations (../routes/leagues.ts), shared with their MCP tools. */
import { z } from "zod";

const url = z.string().describe("absolute URL on this service");
const int = z.number().int();
const status = z.enum(["open", "running", "finished"]);
const outcome = z
  .enum(["first", "second", "draw", "void"])
  .nullable()
  .describe("null while the game is played; void: aborted before both seats moved, which voids the deal");

export const League = z
  .object({
    id: z.string(),
    name: z.string(),
    ruleset: z.enum(["classic", "mutators"]),
    deals: int.describe("deals per pair of entrants, two games each"),
    parallel: int.describe("deals an entrant plays at once"),
    turnSeconds: int,
    status,
    createdAt: z.string(),
    finishedAt: z.string().nullable(),
    entrants: z.array(
      z.object({
        playerId: z.string().describe("the bot's id"),
        name: z.string(),
        withdrawn: z.boolean().describe("its key was revoked while the league ran: its deals not yet played are void"),
      }),
    ),
    progress: z.object({ deals: int, dealsPlayed: int, games: int, gamesPlayed: int }),
    urls: z.object({ self: url, standings: url, games: url }),
  })
  .meta({ id: "League" });

export const CreatedLeague = z.object({
  league: League,
  directorToken: z.string().describe("starts the league; shown once, stored hashed"),
});
export const JoinedLeague = z.object({
  league: League,
  playerId: z.string(),
  playerToken: z.string().describe("the bot's seat token in every game the league schedules it in; shown once"),
});
export const LeagueList = z.object({ leagues: z.array(League) });
export const LeagueStandings = z.object({
  id: z.string(),
  status,
  deals: int.describe("deals scheduled"),
  dealsCounted: int.describe("deals whose two games are decided (a void game voids its deal)"),
  resamples: int.describe("bootstrap resamples behind each interval"),
  standings: z.array(
    z.object({
      rank: int,
      playerId: z.string(),
      name: z.string(),
      rating: z.number().describe("Bradley-Terry rating on the Elo scale, entrants' mean 0"),
      low: z.number().describe("95% bootstrap interval, lower end"),
      high: z.number().describe("95% bootstrap interval, upper end"),
      games: int,
      wins: int,
      draws: int,
      losses: int,
      voided: int.describe("void games the entrant sat in (aborted before both seats moved); their deals are not counted"),
    }),
  ),
});
export const LeagueGames = z.object({
  id: z.string(),
  deals: z.array(
    z.object({
      index: int.describe("position in the schedule"),
      a: z.string().describe("moves first in the deal's first game"),
      b: z.string().describe("moves first in the deal's second game"),
      deal: int.describe("the pair's deal number, from 0"),
      released: z.boolean().describe("whether its games have been created"),
      games: z.array(z.object({ gameId: z.string(), first: z.string().describe("moves first"), second: z.string(), outcome, url })),
    }),
  ),
});
