/** REST for duplicate leagues under /api/v1/leagues: create, list, read, join, start, standings, games. */
import { Router, type Request } from "express";
import { AppError } from "../../../shared/errors";
import { bearerToken } from "../../../shared/secrets";
import { parse } from "../../../shared/validation";
import { CreateLeagueBody, LeagueId, ListLeaguesQuery } from "../../../services/leagues/schemas";
import type { LeagueService } from "../../../services/leagues/service";
import { CreatedLeague, JoinedLeague, League, LeagueGames, LeagueList, LeagueStandings } from "../openapi/leagues";
import { reply } from "../reply";
import { botOf } from "./bots";
import { pathId } from "./path-id";

const idOf = (req: Request): string => pathId(req, LeagueId, "league");

function directorTokenOf(req: Request): string {
  const token = bearerToken(req.headers.authorization);
  if (!token) throw new AppError("unauthorized", "send the league's director token as `Authorization: Bearer pt_...`");
  return token;
}

export function leaguesRouter(leagues: LeagueService): Router {
  const r = Router();
  r.post("/leagues", async (req, res) => {
    reply(res, 201, CreatedLeague, await leagues.create(parse(CreateLeagueBody, req.body, "body")));
  });
  r.get("/leagues", async (req, res) => {
    reply(res, 200, LeagueList, await leagues.list(parse(ListLeaguesQuery, req.query, "query").limit));
  });
  r.get("/leagues/:id", async (req, res) => {
    reply(res, 200, League, await leagues.read(idOf(req)));
  });
  // The bot's key (read by botAuth for every /api request) is what enters it: a league is for bots.
  r.post("/leagues/:id/join", async (req, res) => {
    reply(res, 201, JoinedLeague, await leagues.join(idOf(req), botOf(res)));
  });
  r.post("/leagues/:id/start", async (req, res) => {
    reply(res, 200, League, await leagues.start(idOf(req), directorTokenOf(req)));
  });
  r.get("/leagues/:id/standings", async (req, res) => {
    reply(res, 200, LeagueStandings, await leagues.standings(idOf(req)));
  });
  r.get("/leagues/:id/games", async (req, res) => {
    reply(res, 200, LeagueGames, await leagues.games(idOf(req)));
  });
  return r;
}
