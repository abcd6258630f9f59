import assert from "node:assert/strict";
import { guardFailures } from "../../src/store/failures";
import type { Store } from "../../src/store";

describe("guardFailures", function () {
  it("calls a method replaced on the guarded store, not the one it wrapped first", async function () {
    const calls: string[] = [];
    const inner = { commitGames: async () => (calls.push("original"), []) } as unknown as Store;
    const store = guardFailures(inner, () => undefined);
    await store.commitGames([]);
    const original = store.commitGames.bind(store);
    store.commitGames = async (writes) => (calls.push("replaced"), original(writes));
    await store.commitGames([]);
    assert.deepEqual(calls, ["original", "replaced", "original"]);
  });

  it("turns a store's own failure into an unavailable error and tells it", async function () {
    const told: string[] = [];
    const inner = { getGame: async () => Promise.reject(new Error("disk I/O error")) } as unknown as Store;
    const store = guardFailures(inner, (_e, operation) => told.push(operation));
    await assert.rejects(store.getGame("G1"), (e: { code?: string }) => e.code === "unavailable");
    assert.deepEqual(told, ["getGame"]);
  });
});
