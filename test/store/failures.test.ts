import assert from "node:assert/strict";
import { guardFailures } from "../../src/store/failures";
import type { Store } from "../../src/store";

describe("guardFailures", function () {
  it("calls a method replaced on the guarded store, not the one it wrapped first", async function () {
    const calls: string[] = [];
    const inner = { games: { commitGames: async () => (calls.push("original"), []) } } as unknown as Store;
    const store = guardFailures(inner, () => undefined);
    await store.games.commitGames([]);
    const original = store.games.commitGames.bind(store.games);
    store.games.commitGames = async (writes) => (calls.push("replaced"), original(writes));
    await store.games.commitGames([]);
    assert.deepEqual(calls, ["original", "replaced", "original"]);
  });

  it("turns a store's own failure into an unavailable error and tells it", async function () {
    const told: string[] = [];
    const inner = { games: { getGame: async () => Promise.reject(new Error("disk I/O error")) } } as unknown as Store;
    const store = guardFailures(inner, (_e, operation) => told.push(operation));
    await assert.rejects(store.games.getGame("G1"), (e: { code?: string }) => e.code === "unavailable");
    assert.deepEqual(told, ["getGame"]);
  });

  it("guards the adapter's own methods besides its ports, and leaves its lifecycle alone", async function () {
    const told: string[] = [];
    const failing = async () => Promise.reject(new Error("disk I/O error"));
    const inner = { checkpointed: failing, health: failing } as unknown as Store & { checkpointed(): Promise<void> };
    const store = guardFailures(inner, (_e, operation) => told.push(operation));
    await assert.rejects(store.checkpointed(), (e: { code?: string }) => e.code === "unavailable");
    await assert.rejects(store.health(), /disk I\/O error/);
    assert.deepEqual(told, ["checkpointed"]);
  });
});
