/** REST for duplicate leagues under /api/v1/leagues: create, list, read, join, start, standings, games. */
import { Router, type Request } from "express";
import { AppError } from "../errors";
import { botOf } from "../bots/routes";
import { bearerToken } from "../secrets";
import { parse } from "../validation";
import { CreateLeagueBody, LeagueId, ListLeaguesQuery } from "./schemas";
import type { LeagueService } from "./service";

function idOf(req: Request): string {
  const id = String(req.params.id);
  if (!LeagueId.test(id)) throw new AppError("not_found", `no league with id ${id}`);
  return id;
}

function directorTokenOf(req: Request): string {
  const token = bearerToken(req.headers.authorization);
  if (!token) throw new AppError("unauthorized", "send the league's director token as `Authorization: Bearer pt_...`");
  return token;
}

export function leaguesRouter(leagues: LeagueService): Router {
  const r = Router();
  r.post("/leagues", async (req, res) => {
    res.status(201).json(await leagues.create(parse(CreateLeagueBody, req.body, "body")));
  });
  r.get("/leagues", async (req, res) => {
    res.json(await leagues.list(parse(ListLeaguesQuery, req.query, "query").limit));
  });
  r.get("/leagues/:id", async (req, res) => {
    res.json(await leagues.read(idOf(req)));
  });
  // The bot's key (read by botAuth for every /api request) is what enters it: a league is for bots.
  r.post("/leagues/:id/join", async (req, res) => {
    res.status(201).json(await leagues.join(idOf(req), botOf(res)));
  });
  r.post("/leagues/:id/start", async (req, res) => {
    res.json(await leagues.start(idOf(req), directorTokenOf(req)));
  });
  r.get("/leagues/:id/standings", async (req, res) => {
    res.json(await leagues.standings(idOf(req)));
  });
  r.get("/leagues/:id/games", async (req, res) => {
    res.json(await leagues.games(idOf(req)));
  });
  return r;
}
