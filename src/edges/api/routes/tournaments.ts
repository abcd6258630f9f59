/** REST for tournaments under /api/v1/tournaments: create, list, read, join, start, withdraw, standings, games, TRF. */
import { Router, type Request, type RequestHandler } from "express";
import { AppError } from "../../../shared/errors";
import { bearerToken } from "../../../shared/secrets";
import { parse } from "../../../shared/validation";
import { CreateTournamentBody, JoinTournamentBody, ListTournamentsQuery, TournamentId } from "../../../services/tournaments/schemas";
import type { TournamentService } from "../../../services/tournaments/service";
import { CreatedTournament, Games, JoinedTournament, Standings, Tournament, TournamentList } from "../openapi/tournaments";
import { reply } from "../reply";
import { pathId } from "./path-id";

const idOf = (req: Request): string => pathId(req, TournamentId, "tournament");

function tokenOf(req: Request): string {
  const token = bearerToken(req.headers.authorization);
  if (!token) throw new AppError("unauthorized", "send the tournament token as `Authorization: Bearer pt_...`");
  return token;
}

/** `joins`: the caps on joins per minute (src/edges/api/join-caps.ts), when the server applies them. */
export function tournamentsRouter(tournaments: TournamentService, joins?: { middleware(): RequestHandler[] }): Router {
  const r = Router();
  const joinCaps = joins?.middleware() ?? [];
  r.post("/tournaments", async (req, res) => {
    reply(res, 201, CreatedTournament, await tournaments.create(parse(CreateTournamentBody, req.body, "body")));
  });
  r.get("/tournaments", async (req, res) => {
    reply(res, 200, TournamentList, await tournaments.list(parse(ListTournamentsQuery, req.query, "query").limit));
  });
  r.get("/tournaments/:id", async (req, res) => {
    reply(res, 200, Tournament, await tournaments.read(idOf(req)));
  });
  r.post("/tournaments/:id/join", ...joinCaps, async (req, res) => {
    const id = idOf(req);
    reply(res, 201, JoinedTournament, await tournaments.join(id, parse(JoinTournamentBody, req.body, "body")));
  });
  r.post("/tournaments/:id/start", async (req, res) => {
    reply(res, 200, Tournament, await tournaments.start(idOf(req), tokenOf(req)));
  });
  r.post("/tournaments/:id/withdraw", async (req, res) => {
    reply(res, 200, Tournament, await tournaments.withdraw(idOf(req), tokenOf(req)));
  });
  r.get("/tournaments/:id/standings", async (req, res) => {
    reply(res, 200, Standings, await tournaments.standings(idOf(req)));
  });
  r.get("/tournaments/:id/games", async (req, res) => {
    reply(res, 200, Games, await tournaments.games(idOf(req)));
  });
  r.get("/tournaments/:id/trf", async (req, res) => {
    // TRF-16 is text, not JSON, so it does not go through reply.
    const body = await tournaments.trf(idOf(req));
    res.type("text/plain").send(body);
  });
  return r;
}
