/**
 * No-shows on a short turn clock: a seat that does not move in time loses its tournament game (not a draw, even
 * before the game counts as played), and an entrant who lost two games in a row without moving is withdrawn
 * and paired no more. The pure counting is checked on its own too.
 */
import { strict as assert } from "node:assert";
import type { RunningServer } from "../../src/server";
import { countAbsence, noShowOf } from "../../src/services/tournaments/absence";
import type { TournamentEntrant } from "../../src/store/port";
import { playToEnd, waitForJson } from "../agents/play";
import { bearer, bootServer, http } from "../support/server";

interface GameRow {
  first: string;
  second: string;
  gameId: string;
  outcome: string | null;
}
interface RoundRow {
  round: number;
  bye: string | null;
  games: GameRow[];
}

describe("Tournament no-shows", function () {
  this.timeout(90_000);

  describe("counting (pure)", () => {
    const pairing = { first: "p1", second: "p2", gameId: "g" };
    it("names the seat that lost on the clock without a move, and nobody otherwise", () => {
      assert.equal(noShowOf({ decidedBy: "timeout", moveCount: 0, winner: "B", firstPlayer: "A" }, pairing), "p1");
      assert.equal(noShowOf({ decidedBy: "timeout", moveCount: 1, winner: "A", firstPlayer: "A" }, pairing), "p2");
      assert.equal(noShowOf({ decidedBy: "timeout", moveCount: 2, winner: "B", firstPlayer: "A" }, pairing), null, "the first mover had moved");
      assert.equal(noShowOf({ decidedBy: "resignation", moveCount: 0, winner: "B", firstPlayer: "A" }, pairing), null);
      assert.equal(noShowOf({ decidedBy: "board_full", moveCount: 16, winner: "A", firstPlayer: "A" }, pairing), null);
    });
    it("withdraws after two no-shows in a row; a game played in between starts the run again", () => {
      const entrants: TournamentEntrant[] = [
        { playerId: "p1", name: "a", rating: 1 },
        { playerId: "p2", name: "b", rating: 1 },
      ];
      countAbsence(entrants, pairing, "p1");
      countAbsence(entrants, pairing, null);
      countAbsence(entrants, pairing, "p1");
      assert.equal(entrants[0].withdrawn, undefined);
      countAbsence(entrants, pairing, "p1");
      assert.equal(entrants[0].withdrawn, true);
      assert.equal(entrants[1].withdrawn, undefined);
    });
  });

  describe("over REST with a 2-second clock", () => {
    let server: RunningServer;
    before(async () => {
      server = await bootServer({ tournamentTurnSeconds: 2 });
    });
    after(async () => {
      await server?.close();
    });

    it("forfeits a silent seat's games and withdraws it after two", async () => {
      const base = server.url;
      const rounds = 3;
      const t = await http(base, "POST", "/api/v1/tournaments", { name: "No-shows", rounds });
      const id = t.json.tournament.id as string;
      const joined: { playerId: string; playerToken: string }[] = [];
      for (const name of ["Ann", "Ben", "Cal", "Ghost"]) joined.push((await http(base, "POST", `/api/v1/tournaments/${id}/join`, { name })).json);
      const ghost = joined[3].playerId;
      assert.equal((await http(base, "POST", `/api/v1/tournaments/${id}/start`, undefined, bearer(t.json.directorToken))).status, 200);

      // Everyone but the ghost plays every pairing; the ghost never moves.
      await Promise.all(
        joined.slice(0, 3).map(async (e) => {
          for (let r = 1; r <= rounds; r++) {
            const g = await waitForJson(base, `/api/v1/tournaments/${id}/games`, (j) => j.rounds.length >= r || j.status === "finished", 30_000);
            const round = g.rounds[r - 1] as RoundRow;
            const mine = round.games.find((x) => x.first === e.playerId || x.second === e.playerId);
            if (mine) await playToEnd(base, mine.gameId, e.playerToken, 30_000);
          }
        }),
      );
      await waitForJson(base, `/api/v1/tournaments/${id}`, (j) => j.status === "finished", 30_000);

      const played = (await http(base, "GET", `/api/v1/tournaments/${id}/games`)).json.rounds as RoundRow[];
      assert.equal(played.length, rounds);
      for (const round of played.slice(0, 2)) {
        const g = round.games.find((x) => x.first === ghost || x.second === ghost)!;
        assert.ok(g, "the ghost is paired in rounds 1 and 2");
        assert.equal(g.outcome, g.first === ghost ? "second" : "first", "the ghost's game is lost, not drawn");
        const rec = (await http(base, "GET", `/api/v1/games/${g.gameId}`)).json;
        assert.equal(rec.decidedBy, "timeout");
      }
      // Withdrawn after its second no-show: round 3 pairs the three others (one of them has the bye).
      assert.ok(!played[2].games.some((x) => x.first === ghost || x.second === ghost), "the ghost is not paired in round 3");
      assert.notEqual(played[2].bye, ghost);
      const standings = (await http(base, "GET", `/api/v1/tournaments/${id}/standings`)).json.standings as {
        playerId: string;
        score: number;
        withdrawn: boolean;
      }[];
      const row = standings.find((s) => s.playerId === ghost)!;
      assert.equal(row.withdrawn, true);
      assert.equal(row.score, 0);
      assert.ok(standings.filter((s) => s.playerId !== ghost).every((s) => !s.withdrawn));
    });
  });
});
