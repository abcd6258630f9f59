/**
 * Rematches kept in the finished game's stored record: two Rematches on one store and one presence stand for
 * two processes, and whichever of them each seat's request reaches, they agree and one game starts.
 */
import { strict as assert } from "node:assert";
import { LocalPresence } from "@colyseus/core";
import type { Seat } from "../../src/engine";
import { openStore, type GameRecord, type Store } from "../../src/store";
import { OFFER_TTL_MS, Rematches, rematchChannel, rematchView, type RematchChange, type RematchDeps } from "../../src/services/games/rematch";
import { game } from "../store/fixtures";

const hashes: Record<Seat, string> = { A: "hash-of-a", B: "hash-of-b" };

describe("Unit: rematches shared through the store", () => {
  let store: Store;
  let presence: LocalPresence;
  /** Every game the rematches asked to create, and whether the store took it. */
  let creations: { id: string; created: boolean }[];
  let failNextCreate: boolean;
  let told: RematchChange[];

  const process = (): Rematches => {
    const deps: RematchDeps = {
      store: store.games,
      presence,
      reserveSeat: async () => {
        throw new Error("no rooms here");
      },
      createMatched: async (ruleset, seats, fixed) => {
        if (failNextCreate) {
          failNextCreate = false;
          throw new Error("store down");
        }
        const entry = { id: fixed.id, created: false };
        creations.push(entry);
        await store.games.createGame(game(fixed.id, { ruleset, opponent: fixed.opponent, status: "active", seats: { A: { ...seats.A }, B: { ...seats.B } } }));
        entry.created = true;
        return fixed.id;
      },
    };
    return new Rematches(deps);
  };

  beforeEach(async () => {
    store = await openStore({ database: ":memory:" });
    presence = new LocalPresence();
    creations = [];
    failNextCreate = false;
    told = [];
    const seats = {
      A: { playerId: "P1", name: "Ada", kind: "human" as const, tokenHash: hashes.A },
      B: { playerId: "P2", name: "Bo", kind: "bot" as const, tokenHash: hashes.B },
    };
    await store.games.createGame(game("G1", { status: "finished", decidedBy: "board_full", winner: "A", seats }));
    await presence.subscribe(rematchChannel("G1"), (c: RematchChange) => told.push(c));
  });
  afterEach(async () => {
    await store.close();
    presence.shutdown();
  });

  const record = async (id = "G1"): Promise<GameRecord> => (await store.games.getGame(id))!;

  it("A offers on one process, B accepts on another: one game, seats swapped, each seat's own token hash", async () => {
    const [one, two] = [process(), process()];
    const offered = await one.offer("G1", hashes.A);
    assert.deepEqual(offered, { ok: true, value: { offeredBy: "A" } });
    assert.deepEqual(rematchView(await record()), { offeredBy: "A" }, "the other process reads the offer");
    const accepted = await two.offer("G1", hashes.B);
    assert.ok(accepted.ok);
    const newId = accepted.value.started!.gameId;
    assert.deepEqual(accepted.value, { offeredBy: "A", gameId: newId, started: { gameId: newId, seat: "A" } });
    const again = await one.offer("G1", hashes.A);
    assert.deepEqual(again.ok && again.value.started, { gameId: newId, seat: "B" });
    assert.deepEqual(creations, [{ id: newId, created: true }]);
    const made = await record(newId);
    assert.deepEqual([made.seats.A!.tokenHash, made.seats.B!.tokenHash, made.seats.A!.kind], [hashes.B, hashes.A, "bot"]);
    assert.deepEqual(told, [
      { type: "offered", by: "A" },
      { type: "started", gameId: newId },
    ]);
    const late = await two.decline("G1", hashes.B);
    assert.equal(!late.ok && late.code, "conflict");
  });

  it("starts one game when both seats and a repeated request race on two processes", async () => {
    const [one, two] = [process(), process()];
    for (let round = 0; round < 5; round++) {
      // Nobody has offered yet: of two first requests one offers and the other accepts it.
      const answers = await Promise.all([one.offer("G1", hashes.A), two.offer("G1", hashes.B), two.offer("G1", hashes.B), one.offer("G1", hashes.A)]);
      assert.ok(
        answers.every((a) => a.ok),
        JSON.stringify(answers),
      );
      const ids = new Set(answers.map((a) => a.ok && a.value.started?.gameId).filter(Boolean));
      const stored = (await record()).rematch!;
      assert.ok(stored.gameId && ids.size === 1 && ids.has(stored.gameId), JSON.stringify({ answers, stored }));
      assert.deepEqual(
        creations.map((c) => c.id),
        [stored.gameId],
      );
      assert.equal(told.filter((c) => c.type === "started").length, 1);
      // The next round from no rematch again.
      await store.games.updateGameIf("G1", {}, { rematch: undefined });
      creations = [];
      told = [];
    }
  });

  it("lets an offer lapse: the other seat's request then offers instead of accepting", async () => {
    const one = process();
    const old = new Date(Date.now() - OFFER_TTL_MS - 1000).toISOString();
    assert.equal(await store.games.updateRematchIf("G1", undefined, { version: 1, offeredBy: "A", at: old }), true);
    assert.deepEqual(rematchView(await record()), { offeredBy: null });
    assert.deepEqual(await one.decline("G1", hashes.A), { ok: true, value: { offeredBy: null } });
    assert.deepEqual(await one.offer("G1", hashes.B), { ok: true, value: { offeredBy: "B" } });
    assert.equal(creations.length, 0);
    assert.deepEqual(await one.decline("G1", hashes.A), { ok: true, value: { offeredBy: null } });
    assert.deepEqual(told, [
      { type: "offered", by: "B" },
      { type: "declined", by: "A" },
    ]);
  });

  it("keeps the stored id when the game could not be made, and makes it on the next request", async () => {
    const one = process();
    await one.offer("G1", hashes.A);
    failNextCreate = true;
    const failed = await one.offer("G1", hashes.B);
    assert.equal(!failed.ok && failed.code, "unavailable");
    const id = (await record()).rematch!.gameId!;
    assert.ok(id);
    assert.equal(await store.games.getGame(id), null);
    const declined = await one.decline("G1", hashes.A);
    assert.equal(!declined.ok && declined.code, "conflict", "an accepted rematch is not declined");
    const retried = await one.offer("G1", hashes.A);
    assert.deepEqual(retried.ok && retried.value.started, { gameId: id, seat: "B" });
    assert.ok(await store.games.getGame(id));
    assert.deepEqual(
      told.filter((c) => c.type === "started"),
      [{ type: "started", gameId: id }],
    );
  });

  it("refuses spectators, wrong tokens and games that offer none", async () => {
    const one = process();
    assert.equal(((await one.offer("G1", null)) as { code?: string }).code, "unauthorized");
    assert.equal(((await one.offer("G1", "nobody")) as { code?: string }).code, "unauthorized");
    assert.equal(((await one.offer("nope", hashes.A)) as { code?: string }).code, "not_found");
    await store.games.createGame(
      game("H1", { status: "finished", opponent: "house", seats: { A: { playerId: "P1", name: "Ada", kind: "human", tokenHash: hashes.A } } }),
    );
    assert.equal(((await one.offer("H1", hashes.A)) as { code?: string }).code, "forbidden");
    await store.games.createGame(game("W1", { status: "active", seats: { A: { playerId: "P1", name: "Ada", kind: "human", tokenHash: hashes.A } } }));
    assert.equal(((await one.offer("W1", hashes.A)) as { code?: string }).code, "game_not_finished");
  });

  it("tells a room following the game on any process, until it stops following", async () => {
    const [one, two] = [process(), process()];
    const seen: RematchChange[] = [];
    const stop = one.subscribe("G1", (c) => seen.push(c));
    await new Promise((r) => setImmediate(r));
    await two.offer("G1", hashes.B);
    assert.deepEqual(seen, [{ type: "offered", by: "B" }]);
    assert.equal(one.open("G1"), true);
    await two.offer("G1", hashes.A);
    assert.equal(seen.at(-1)?.type, "started");
    assert.equal(one.open("G1"), false, "a started rematch holds the room no longer");
    stop();
    presence.publish(rematchChannel("G1"), { type: "declined", by: "A" });
    assert.equal(seen.length, 2, "nothing reaches a room that stopped following");
  });
});
