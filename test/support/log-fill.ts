/**
 * Fills a server's public log with many entries at once, straight through the store's append (as the sequencer
 * writes a batch), for the tests and benchmarks that need a log of megabytes: entries of about `leafBytes`
 * each, JSON with a game id and padding. Their tree nodes are not written, so proofs of them are not served;
 * entries, exports and the head are.
 */
import type { LogPort } from "../../src/store/port";

export async function fillLog(store: Pick<LogPort, "logState" | "appendLog">, count: number, leafBytes = 1000, batch = 2000): Promise<number> {
  for (let done = 0; done < count;) {
    const state = await store.logState();
    const n = Math.min(batch, count - done);
    const entries = Array.from({ length: n }, (_, k) => {
      const index = state.size + k;
      const gameId = `F${String(index).padStart(7, "0")}`;
      const leaf = JSON.stringify({ gameId, pad: "x".repeat(Math.max(0, leafBytes - 40)) });
      return { index, gameId, leaf, finishedAt: new Date(Date.UTC(2026, 10, 2, 10, 0, 0, index)).toISOString() };
    });
    const head = { size: state.size + n, rootHash: "0".repeat(64), timestamp: new Date().toISOString(), signature: "" };
    // The sequencer may claim its lease (a new epoch) between the read and the append: then read again.
    if (await store.appendLog({ epoch: state.epoch, fromSize: state.size, entries, nodes: [], head })) done += n;
  }
  return (await store.logState()).size;
}
