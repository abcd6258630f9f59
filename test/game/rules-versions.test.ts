import { strict as assert } from "node:assert";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { play } from "./helpers";
import { buildReplay, CURRENT_RULES_VERSION, legalMoves, newGame, seatView, spectatorView, verifyReplay, type Action, type Replay } from "../../src/game";
import { rebuildContext } from "../../src/games/context";
import type { GameRecord, StoredAction } from "../../src/store/port";
import { reviewGame } from "../../src/ai";

/** Replays saved under rules version 1 before versions existed: they name no version, as stored ones do. */
const FIXTURES = join(__dirname, "fixtures", "rules-v1");
const fixtures = readdirSync(FIXTURES).filter((f) => f.endsWith(".json")).sort()
  .map((f) => ({ file: f, replay: JSON.parse(readFileSync(join(FIXTURES, f), "utf8")) as Replay }));

/** The stored form of a fixture's game: a record without a rules version and its action log. */
function stored(replay: Replay): { record: GameRecord; actions: StoredAction[] } {
  const at = "2026-01-01T00:00:00.000Z";
  const seat = (s: "A" | "B") => ({ playerId: `p_${s}`, name: replay.players[s], kind: "human" as const, champion: replay.champions[s] });
  const record: GameRecord = {
    id: replay.id, ruleset: replay.ruleset, opponent: "friend", public: true, turnSeconds: 120,
    seed: replay.seed, salt: replay.salt, commitment: replay.commitment, status: "finished",
    seats: { A: seat("A"), B: seat("B") }, firstPlayer: replay.firstPlayer, moveCount: replay.moveCount,
    score: replay.score, winner: replay.winner, decidedBy: replay.decidedBy, createdAt: at, updatedAt: at,
  };
  const log: Action[] = [];
  const endings = [...replay.endings];
  for (let i = 0; i <= replay.moves.length; i++) {
    while (endings.length > 0 && endings[0].after === i) log.push(endings.shift()!.action);
    if (i < replay.moves.length) log.push({ kind: "place", card: replay.moves[i].card, square: replay.moves[i].square });
  }
  return { record, actions: log.map((action, index) => ({ gameId: replay.id, index, action, at })) };
}

describe("Unit: rules versions", () => {
  it("has fixtures of both rulesets, played to a full board and ended by resignation", () => {
    assert.ok(fixtures.length >= 4);
    assert.deepEqual(new Set(fixtures.map((f) => f.replay.ruleset)), new Set(["classic", "mutators"]));
    assert.ok(fixtures.some((f) => f.replay.decidedBy === "resignation"));
    for (const f of fixtures) assert.equal(f.replay.rulesVersion, undefined, f.file);
  });

  for (const { file, replay } of fixtures) {
    it(`verifies the version 1 replay ${file}, with or without its version named`, () => {
      assert.deepEqual(verifyReplay(replay), { ok: true });
      assert.deepEqual(verifyReplay({ ...replay, rulesVersion: 1 }), { ok: true });
    });

    it(`rebuilds ${file} from its stored record under version 1 and gives back the same replay`, () => {
      const { record, actions } = stored(replay);
      const ctx = rebuildContext(record, actions);
      assert.ok(ctx.engine);
      assert.equal(ctx.engine.rulesVersion, 1);
      const again = buildReplay(ctx.engine, { id: replay.id, players: replay.players, replayUrl: replay.replayUrl });
      assert.deepEqual(again, { ...replay, rulesVersion: 1 });
    });
  }

  it("reviews a version 1 replay under its own rules", () => {
    const resigned = fixtures.find((f) => f.replay.decidedBy === "resignation")!.replay;
    const review = reviewGame(resigned);
    assert.equal(review.moves.length, resigned.moves.length);
    assert.deepEqual(review.moves.map((m) => m.played), resigned.moves.map((m) => m.notation));
  });

  it("tells the versions apart: a version 1 game claimed as version 2 does not verify, a version 2 game does", () => {
    for (const { replay } of fixtures) {
      const res = verifyReplay({ ...replay, rulesVersion: 2 });
      assert.equal(res.ok, false, replay.id);
    }
    let s = newGame({ ruleset: "mutators", rulesVersion: 2 }, 99, "v2");
    while (s.status === "active") s = play(s, legalMoves(s)[0].card, legalMoves(s)[0].square).state;
    const replay = buildReplay(s, { id: "g_v2", players: { A: "a", B: "b" }, replayUrl: "" });
    assert.equal(replay.rulesVersion, 2);
    assert.deepEqual(verifyReplay(replay), { ok: true });
    assert.equal(verifyReplay({ ...replay, rulesVersion: 1 }).ok, false);
  });

  it("refuses a replay that names a rules version that does not exist", () => {
    const res = verifyReplay({ ...fixtures[0].replay, rulesVersion: 99 });
    assert.equal(res.ok, false);
    if (!res.ok) assert.equal(res.field, "rulesVersion");
  });

  it("records the rules version on every new game, its views and its replay", () => {
    const s = newGame({ ruleset: "classic" }, 5, "v");
    assert.equal(s.rulesVersion, CURRENT_RULES_VERSION);
    assert.equal(seatView(s, "A").rulesVersion, CURRENT_RULES_VERSION);
    assert.equal(spectatorView(s).rulesVersion, CURRENT_RULES_VERSION);
    assert.equal(newGame({ ruleset: "classic", rulesVersion: 1 }, 5, "v").rulesVersion, 1);
    assert.throws(() => newGame({ ruleset: "classic", rulesVersion: 7 as never }, 5, "v"), /unknown rules version/);
  });
});
