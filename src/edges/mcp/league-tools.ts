/**
 * The leagues' MCP tools: the read-only REST operations under /leagues, with the same answers. Entering a
 * league needs a bot key, which MCP sessions do not carry, so joining and starting stay REST operations.
 */
import { z } from "zod";
import * as L from "../api/openapi/leagues";
import { def, type ToolDef } from "./tool-def";

const leagueId = z
  .string()
  .regex(/^l_[A-Za-z0-9_-]{8,20}$/, "must be a league id")
  .describe("league id");
const byId = z.object({ league_id: leagueId }).strict();

export const LEAGUE_TOOLS: ToolDef[] = [
  def(
    "list_leagues",
    true,
    "Duplicate leagues of bots, newest first.",
    z.object({ limit: z.number().int().min(1).max(100).default(20) }).strict(),
    L.LeagueList,
    (a, d) => d.leagues.list(a.limit),
  ),
  def("get_league", true, "A duplicate league: status, entrants, deals per pair and progress.", byId, L.League, (a, d) => d.leagues.read(a.league_id)),
  def(
    "league_standings",
    true,
    "Standings: Bradley-Terry ratings (Elo scale, mean 0) with 95% bootstrap intervals, and games, wins, draws and losses per entrant.",
    byId,
    L.LeagueStandings,
    (a, d) => d.leagues.standings(a.league_id),
  ),
  def(
    "league_games",
    true,
    "Every deal of the league in schedule order with its two games (one from each seat) and their outcomes.",
    byId,
    L.LeagueGames,
    (a, d) => d.leagues.games(a.league_id),
  ),
];
