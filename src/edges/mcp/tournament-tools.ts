/** The tournaments' MCP tools: the REST operations under /tournaments, with the same schemas and answers. */
import { z } from "zod";
import * as T from "../api/openapi/tournaments";
import { CreateArenaBody, CreateSwissBody, CreateTournamentBody, JoinTournamentBody } from "../../services/tournaments/schemas";
import { parse } from "../../shared/validation";
import { def, type ToolDef } from "./tool-def";

const tournamentId = z
  .string()
  .regex(/^t_[A-Za-z0-9_-]{8,20}$/, "must be a tournament id")
  .describe("tournament id");
const token = (what: string) => z.string().min(1).max(200).describe(what);
const byId = z.object({ tournament_id: tournamentId }).strict();

/** MCP tools take one object: the create body's two formats side by side, checked again by the REST schema. */
const CreateArguments = z
  .object({
    name: CreateSwissBody.shape.name,
    format: z.enum(["swiss", "arena"]).default("swiss"),
    rounds: CreateSwissBody.shape.rounds.optional().describe("swiss only: the number of rounds (1-20)"),
    minutes: CreateArenaBody.shape.minutes.optional().describe("arena only: its length in minutes (1-720)"),
    ruleset: CreateSwissBody.shape.ruleset,
  })
  .strict();

export const TOURNAMENT_TOOLS: ToolDef[] = [
  def(
    "create_tournament",
    false,
    'Create a swiss tournament of `rounds` rounds, or an arena (format "arena") of `minutes` minutes where entrants play game after game until the time is up. Keep the returned directorToken: start_tournament needs it, and it is shown once.',
    CreateArguments,
    T.CreatedTournament,
    (a, d) => d.tournaments.create(parse(CreateTournamentBody, Object.fromEntries(Object.entries(a).filter(([, v]) => v !== undefined)), "arguments")),
  ),
  def(
    "join_tournament",
    false,
    "Enter an open tournament (an arena until its time is up). The returned playerToken (shown once) is your seat token in every game the tournament pairs you in: find your game with tournament_games, then loop sync and move.",
    JoinTournamentBody.extend({ tournament_id: tournamentId }).strict(),
    T.JoinedTournament,
    async ({ tournament_id, ...body }, d) => {
      // The same caps as REST's join, counted in the same store; a refused join is given back.
      const release = (await d.tournamentJoins?.admit(d.address, body.player?.id)) ?? (async () => {});
      try {
        return await d.tournaments.join(tournament_id, body);
      } catch (e) {
        await release();
        throw e;
      }
    },
  ),
  def(
    "start_tournament",
    false,
    "Swiss: close entries and pair round 1. Arena: start its clock and pair the entrants. Needs the director token from create_tournament.",
    z.object({ tournament_id: tournamentId, director_token: token("the director token") }).strict(),
    T.Tournament,
    (a, d) => d.tournaments.start(a.tournament_id, a.director_token),
  ),
  def(
    "withdraw_from_tournament",
    false,
    "Withdraw: your results stay, you are paired no more.",
    z.object({ tournament_id: tournamentId, player_token: token("your entrant token from join_tournament") }).strict(),
    T.Tournament,
    (a, d) => d.tournaments.withdraw(a.tournament_id, a.player_token),
  ),
  def(
    "list_tournaments",
    true,
    "Tournaments, newest first.",
    z.object({ limit: z.number().int().min(1).max(100).default(20) }).strict(),
    T.TournamentList,
    (a, d) => d.tournaments.list(a.limit),
  ),
  def("get_tournament", true, "A tournament: status, rounds, entrants.", byId, T.Tournament, (a, d) => d.tournaments.read(a.tournament_id)),
  def(
    "tournament_standings",
    true,
    "Standings: swiss by score, Buchholz, Sonneborn-Berger; arena by score, with each entrant's streak, fire and games.",
    byId,
    T.Standings,
    (a, d) => d.tournaments.standings(a.tournament_id),
  ),
  def(
    "tournament_games",
    true,
    "Swiss: every round's games (first mover first) with outcomes, and each round's bye. Arena: every game in the order paired (null outcome: under way) and who waits.",
    byId,
    T.Games,
    (a, d) => d.tournaments.games(a.tournament_id),
  ),
  def("tournament_trf", true, "The FIDE TRF-16 report of the tournament.", byId, z.object({ trf: z.string() }), async (a, d) => ({
    trf: await d.tournaments.trf(a.tournament_id),
  })),
];
