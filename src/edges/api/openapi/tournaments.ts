/** The answers of the tournaments operations (../routes/tournaments.ts), shared with their MCP tools. */
import { z } from "zod";

const url = z.string().describe("absolute URL on this service");
const int = z.number().int();
const outcome = z.enum(["first", "second", "draw"]).nullable().describe("null while the game is played");

export const Tournament = z
  .object({
    id: z.string(),
    name: z.string(),
    format: z.enum(["swiss", "arena"]),
    ruleset: z.enum(["classic", "mutators"]),
    rounds: int.describe("swiss: the number of rounds; 0 for an arena"),
    round: int.describe("swiss: rounds paired so far; 0 for an arena"),
    minutes: int.nullable().describe("arena: its length in minutes; null for a swiss"),
    endsAt: z.string().nullable().describe("arena: when pairing stops (set at the start); games under way then still count"),
    status: z.enum(["open", "running", "finished"]),
    createdAt: z.string(),
    maxEntrants: int.describe("most entrants it accepts"),
    entrants: z.array(z.object({ playerId: z.string(), name: z.string(), rating: int, withdrawn: z.boolean() })),
    urls: z.object({ self: url, standings: url, games: url, trf: url }),
  })
  .meta({ id: "Tournament" });

export const CreatedTournament = z.object({
  tournament: Tournament,
  directorToken: z.string().describe("starts the tournament; shown once, stored hashed"),
});
export const JoinedTournament = z.object({
  tournament: Tournament,
  playerId: z.string(),
  playerToken: z.string().describe("the entrant's token: the seat token of every game the tournament pairs them in; shown once"),
});
export const TournamentList = z.object({ tournaments: z.array(Tournament) });
export const Standings = z.object({
  id: z.string(),
  status: z.enum(["open", "running", "finished"]),
  round: int,
  rounds: int,
  standings: z
    .array(
      z.union([
        z
          .object({
            rank: int,
            playerId: z.string(),
            name: z.string(),
            rating: int,
            score: z.number(),
            buchholz: z.number(),
            sonnebornBerger: z.number(),
            withdrawn: z.boolean(),
          })
          .meta({ id: "SwissStanding" }),
        z
          .object({
            rank: int,
            playerId: z.string(),
            name: z.string(),
            rating: int,
            score: z.number(),
            streak: int.describe("wins in a row up to now"),
            fire: z.boolean().describe("two or more wins in a row: the next win counts 4"),
            games: int.describe("games counted"),
            withdrawn: z.boolean(),
          })
          .meta({ id: "ArenaStanding" }),
      ]),
    )
    .describe("a swiss's rows (score, Buchholz, Sonneborn-Berger) or an arena's (score, streak)"),
});
export const Games = z.object({
  id: z.string(),
  rounds: z
    .array(
      z.object({
        round: int,
        bye: z.string().nullable(),
        games: z.array(z.object({ first: z.string().describe("moves first"), second: z.string(), gameId: z.string(), outcome, url })),
      }),
    )
    .describe("swiss rounds; empty for an arena"),
  games: z
    .array(
      z.object({
        first: z.string().describe("moves first"),
        second: z.string(),
        gameId: z.string(),
        outcome,
        pairedAt: z.string(),
        url,
      }),
    )
    .optional()
    .describe("arena: every game in the order paired; those with a null outcome are under way"),
  waiting: z.array(z.string()).optional().describe("arena: player ids waiting for an opponent, longest-waiting first"),
});
