/**
 * The schema state a tournament room replicates to spectators: the standings and the current round's
 * pairings, public facts only and the same bytes for every client (no per-seat view). It is a projection of
 * the stored tournament, rewritten whole after each stored change (a few hundred rows at most).
 */
import { ArraySchema, schema, t } from "@colyseus/schema";
import type { TournamentRecord } from "../src/store/port";
import { arenaStandingRows, standingRows } from "../src/services/tournaments";

export const StandingState = schema(
  {
    rank: t.uint16().default(0),
    playerId: t.string().default(""),
    name: t.string().default(""),
    score: t.number().default(0),
    buchholz: t.number().default(0),
    sonnebornBerger: t.number().default(0),
    withdrawn: t.boolean().default(false),
    /** Arena: wins in a row, "on fire" (two or more: the next win counts 4), and games counted. */
    streak: t.uint16().default(0),
    fire: t.boolean().default(false),
    games: t.uint16().default(0),
  },
  "StandingState",
);

export const PairingState = schema(
  {
    /** Player who moves first; for a bye, the player sitting out. */
    first: t.string().default(""),
    /** "" for a bye. */
    second: t.string().default(""),
    gameId: t.string().default(""),
    /** first | second | draw; "" while the game is played (and for a bye). */
    outcome: t.string().default(""),
  },
  "PairingState",
);

export const TournamentRoomState = schema(
  {
    tournamentId: t.string().default(""),
    name: t.string().default(""),
    /** swiss | arena */
    format: t.string().default("swiss"),
    /** Arena: when pairing stops (ISO time; "" until started). */
    endsAt: t.string().default(""),
    /** open | running | finished */
    status: t.string().default("open"),
    round: t.uint16().default(0),
    rounds: t.uint16().default(0),
    standings: t.array(StandingState),
    /** Swiss: the current round. Arena: the games under way. */
    pairings: t.array(PairingState),
  },
  "TournamentRoomState",
);
export type TournamentRoomState = InstanceType<typeof TournamentRoomState>;

/** Rewrites `state` from the stored tournament. */
export function projectTournament(tr: TournamentRecord, state: TournamentRoomState): void {
  state.tournamentId = tr.id;
  state.name = tr.name;
  state.format = tr.format;
  state.endsAt = tr.arena?.endsAt ?? "";
  state.status = tr.status;
  state.round = tr.played.length;
  state.rounds = tr.rounds;
  if (tr.arena) {
    state.standings = new ArraySchema(
      ...arenaStandingRows(tr).map(
        (r) =>
          new StandingState({
            rank: r.rank,
            playerId: r.playerId,
            name: r.name,
            score: r.score,
            withdrawn: r.withdrawn,
            streak: r.streak,
            fire: r.fire,
            games: r.games,
          }),
      ),
    );
    state.pairings = new ArraySchema(
      ...tr.arena.games.filter((g) => !g.outcome).map((g) => new PairingState({ first: g.first, second: g.second, gameId: g.gameId })),
    );
    return;
  }
  state.standings = new ArraySchema(
    ...standingRows(tr).map(
      (r) =>
        new StandingState({
          rank: r.rank,
          playerId: r.playerId,
          name: r.name,
          score: r.score,
          buchholz: r.buchholz,
          sonnebornBerger: r.sonnebornBerger,
          withdrawn: r.withdrawn,
        }),
    ),
  );
  const round = tr.played.at(-1);
  const rows = (round?.games ?? []).map((g) => new PairingState({ first: g.first, second: g.second, gameId: g.gameId, outcome: g.outcome ?? "" }));
  if (round?.bye) rows.push(new PairingState({ first: round.bye }));
  state.pairings = new ArraySchema(...rows);
}
