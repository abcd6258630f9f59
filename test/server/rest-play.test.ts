import { strict as assert } from "node:assert";
import { verifyReplay } from "../../src/engine";
import type { RunningServer } from "../../src/server";
import { pickMove, playRest, seatedFriendGame } from "../support/play";
import { bearer, bootServer, http } from "../support/server";

/** Every card id a body mentions inside a `hand` array (what a viewer was shown as a hand). */
function handCardsIn(body: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(body)) body.forEach((b) => handCardsIn(b, out));
  else if (body && typeof body === "object") {
    for (const [k, v] of Object.entries(body)) {
      if (k === "hand" && Array.isArray(v)) v.forEach((c: any) => out.add(c.id));
      else handCardsIn(v, out);
    }
  }
  return out;
}

/** A sample's value in the server's /metrics text (0 when the series has no sample yet), e.g. `arena_moves_total{player="human"}`. */
async function sample(base: string, series: string): Promise<number> {
  const text = await fetch(`${base}/metrics`).then((r) => r.text());
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe("Integration: REST agents play through sync and moves", function () {
  this.timeout(60_000);
  let server: RunningServer;
  before(async () => {
    server = await bootServer();
  });
  after(async () => server.close());

  it("plays a whole friend game between two REST agents and serves a verifiable replay", async () => {
    const base = server.url;
    const created = await http(base, "POST", "/api/v1/games", { opponent: "friend", name: "Ann" });
    assert.equal(created.status, 201);
    assert.equal(created.json.game.status, "waiting");
    assert.match(created.json.playerToken, /^pt_/);
    const id = created.json.game.id;

    const early = await http(base, "GET", `/api/v1/games/${id}/replay`);
    assert.equal(early.status, 409);
    assert.equal(early.json.code, "game_not_finished");

    const joined = await http(base, "POST", "/api/v1/games/join", { code: created.json.code, name: "Bob" });
    assert.equal(joined.status, 200);
    assert.notEqual(joined.json.seat, created.json.seat);

    const seen: Record<string, any[]> = { A: [], B: [] };
    const seats: Record<string, string> = { [created.json.seat]: created.json.playerToken, [joined.json.seat]: joined.json.playerToken };
    const [endA, endB] = await Promise.all((["A", "B"] as const).map((s) => playRest(base, id, seats[s], (b) => seen[s].push(b))));
    assert.equal(endA.status, "finished");
    assert.equal(endB.moveCount, 16);
    assert.equal(endA.reveal.seed, endB.reveal.seed);

    // Neither seat was ever shown a card of the other seat's hand, nor the seed before the end.
    for (const seat of ["A", "B"] as const) {
      for (const body of seen[seat]) {
        if (body.status !== "finished") assert.equal(body.reveal, undefined);
        assert.equal(JSON.stringify(body).includes('"seed"'), body.status === "finished");
        const shown = handCardsIn(body);
        for (const card of body.state?.hand ?? []) assert.ok(shown.has(card.id));
        assert.equal(body.view, "seat");
        assert.equal(body.seat, seat);
      }
    }

    const replay = await http(base, "GET", `/api/v1/games/${id}/replay`);
    assert.equal(replay.status, 200);
    for (const field of ["id", "ruleset", "players", "seed", "firstPlayer", "score", "moveCount", "moves", "winner", "chessTiles", "replayUrl"]) {
      assert.ok(field in replay.json, `replay lacks ${field}`);
    }
    assert.equal(replay.json.moveCount, 16);
    assert.equal(replay.json.seed, endA.reveal.seed);
    assert.deepEqual(verifyReplay(replay.json), { ok: true });
    const tampered = structuredClone(replay.json);
    tampered.moves[5].captures += 1;
    assert.equal(verifyReplay(tampered).ok, false);

    const review = await http(base, "GET", `/api/v1/games/${id}/review`);
    assert.equal(review.status, 200);
    assert.equal(review.json.moves.length, 16);
  });

  it("lets a REST agent beat or lose to the house opponent to the end, with ratings applied", async () => {
    const base = server.url;
    // The server's counters as this game finds them (other tests of this file share the server).
    const series = {
      finished: 'arena_games_finished_total{decided_by="board_full"}',
      agentMoves: 'arena_moves_total{player="human"}',
      houseMoves: 'arena_moves_total{player="house"}',
      decisions: 'arena_ai_task_seconds_count{task="decide"}',
    };
    const before = Object.fromEntries(await Promise.all(Object.entries(series).map(async ([k, s]) => [k, await sample(base, s)])));
    const created = await http(base, "POST", "/api/v1/games", { opponent: "house", level: "easy", name: "Agent" });
    assert.equal(created.status, 201);
    assert.equal(created.json.game.status, "active");
    const end = await playRest(base, created.json.game.id, created.json.playerToken);
    assert.equal(end.status, "finished");
    assert.equal(end.decidedBy, "board_full");
    const profile = await http(base, "GET", `/api/v1/players/${created.json.player.id}`);
    assert.equal(profile.status, 200);
    assert.equal(profile.json.player.games, 1);
    assert.notEqual(profile.json.player.rating, 1500);
    assert.match(profile.json.player.recentForm, /^[WLD]$/);
    // The metrics count this game: one finish, the agent's 8 placements and the house's 8, each house move decided on the AI pool.
    const grown = async (k: keyof typeof series) => (await sample(base, series[k])) - before[k];
    assert.equal(await grown("finished"), 1);
    assert.equal(await grown("agentMoves"), 8);
    assert.equal(await grown("houseMoves"), 8);
    assert.ok((await grown("decisions")) >= 8, "a decision timed for each house move");
    const metrics = await fetch(`${base}/metrics`).then((r) => r.text());
    assert.match(metrics, /arena_webhook_deliveries\{state="in_flight"\} \d+/);
  });

  it("shows a spectator only counts for both hands and never the seed before the end", async () => {
    const base = server.url;
    const created = await http(base, "POST", "/api/v1/games", { opponent: "friend" });
    const id = created.json.game.id;
    const joined = await http(base, "POST", "/api/v1/games/join", { code: created.json.code });
    const spectated: any[] = [];
    const watcher = (async () => {
      let since = 0;
      for (;;) {
        const r = await http(base, "GET", `/api/v1/games/${id}/sync?since=${since}&timeout=5`);
        assert.equal(r.status, 200);
        spectated.push(r.json);
        since = r.json.moveCount;
        if (r.json.status === "finished") return;
      }
    })();
    await Promise.all([playRest(base, id, created.json.playerToken), playRest(base, id, joined.json.playerToken)]);
    await watcher;
    assert.ok(spectated.length > 1);
    for (const body of spectated) {
      assert.equal(body.view, "spectator");
      assert.equal(handCardsIn(body).size, 0);
      if (body.state) assert.deepEqual(Object.keys(body.state.hands).sort(), ["A", "B"]);
      if (body.status !== "finished") assert.ok(!JSON.stringify(body).includes('"seed"'));
    }
    const full = await http(base, "GET", `/api/v1/games/${id}`);
    assert.equal(handCardsIn(full.json).size, 0);
  });

  it("refuses moves with a missing, malformed or wrong token, and out of turn, as problem documents, changing nothing", async () => {
    const base = server.url;
    const a = await http(base, "POST", "/api/v1/games", { opponent: "friend" });
    const b = await http(base, "POST", "/api/v1/games/join", { code: a.json.code });
    const id = a.json.game.id;
    const sync = await http(base, "GET", `/api/v1/games/${id}/sync`, undefined, bearer(a.json.playerToken));
    const mover = sync.json.yourTurn ? a.json.playerToken : b.json.playerToken;
    const waiter = sync.json.yourTurn ? b.json.playerToken : a.json.playerToken;
    const moverView = (await http(base, "GET", `/api/v1/games/${id}/sync`, undefined, bearer(mover))).json.state;
    const move = { card: moverView.hand[0].id, square: "a1" };

    const none = await http(base, "POST", `/api/v1/games/${id}/moves`, move);
    assert.equal(none.status, 401);
    assert.equal(none.json.code, "unauthorized");
    assert.equal(none.headers.get("content-type"), "application/problem+json; charset=utf-8");
    const bad = await http(base, "POST", `/api/v1/games/${id}/moves`, move, { authorization: "Bearer nope" });
    assert.equal(bad.json.code, "unauthorized");
    const wrong = await http(base, "POST", `/api/v1/games/${id}/moves`, move, bearer("pt_" + "x".repeat(43)));
    assert.equal(wrong.json.code, "unauthorized");
    // The pipeline's own refusals (out of turn, a card not in hand, a malformed move, a taken square) are tested
    // on the game actor (test/games/actor/game-actor.test.ts); here their statuses over HTTP.
    const early = await http(base, "POST", `/api/v1/games/${id}/moves`, move, bearer(waiter));
    assert.equal(early.status, 409);
    assert.equal(early.json.code, "not_your_turn");
    const notInHand = await http(base, "POST", `/api/v1/games/${id}/moves`, { card: "ZZ9", square: "a1" }, bearer(mover));
    assert.equal(notInHand.status, 422);
    assert.equal(notInHand.json.code, "illegal_move");

    const after = await http(base, "GET", `/api/v1/games/${id}`);
    assert.equal(after.json.moveCount, 0);

    const ok = await http(base, "POST", `/api/v1/games/${id}/moves`, { move: `${move.card}@a1` }, bearer(mover));
    assert.equal(ok.status, 200);
    assert.equal(ok.json.move.notation.startsWith(`${move.card}@a1`), true);
  });
});

describe("Integration: a finished game is shown only once it is stored as finished", function () {
  this.timeout(60_000);
  let server: RunningServer;
  // A long commit window widens the time between the finishing action's commit and the stored end
  // (ratings, then the record marked finished), so that a reader polling meanwhile would catch the gap.
  before(async () => {
    server = await bootServer({ commitWindowMs: 200 });
  });
  after(async () => server.close());

  it("answers the replay and the rated profiles to whoever first reads the game as finished", async () => {
    const base = server.url;
    const { id, tokens, players } = await seatedFriendGame(base, { create: { name: "Ann" }, join: { name: "Bob" } });
    const turn = async () => {
      for (const token of Object.values(tokens)) {
        const s = await http(base, "GET", `/api/v1/games/${id}/sync`, undefined, bearer(token));
        if (s.json.yourTurn) return { token, state: s.json.state, moveCount: s.json.moveCount as number };
      }
      throw new Error("nobody's turn");
    };
    for (let n = 0; n < 15; n++) {
      const t = await turn();
      assert.equal((await http(base, "POST", `/api/v1/games/${id}/moves`, pickMove(t.state), bearer(t.token))).status, 200);
    }
    const last = await turn();
    assert.equal(last.moveCount, 15);
    const finishing = http(base, "POST", `/api/v1/games/${id}/moves`, pickMove(last.state), bearer(last.token));
    // Poll the public record while the finishing move is stored, rated and marked finished.
    let record = await http(base, "GET", `/api/v1/games/${id}`);
    while (record.json.status !== "finished") {
      assert.equal(record.json.moveCount, 15, "the finishing move shows only with the finished game");
      await new Promise((r) => setTimeout(r, 5));
      record = await http(base, "GET", `/api/v1/games/${id}`);
    }
    const replay = await http(base, "GET", `/api/v1/games/${id}/replay`);
    assert.equal(replay.status, 200, replay.text);
    assert.equal(replay.json.moveCount, 16);
    for (const p of Object.values(players)) assert.equal((await http(base, "GET", `/api/v1/players/${p}`)).json.player.games, 1);
    assert.equal((await finishing).status, 200);
  });
});
