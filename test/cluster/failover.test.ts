/**
 * Losing a process: several real processes share one store and a private Redis; one is killed (SIGKILL),
 * stopped (SIGTERM) or stalled (SIGSTOP, then SIGCONT), and its games must be playable again on the others
 * with every acknowledged move kept and one room per game. On each store: a SQLite file, and MongoDB
 * (MONGODB_URL, or CongoDB when it is installed).
 */
import { strict as assert } from "node:assert";
import { Client } from "@colyseus/sdk";
import { GAME_MOVED_CODE } from "../../src/services/cluster";
import type { GameRecord } from "../../src/store";
import { congoAvailable } from "../support/congodb";
import { redisAvailable } from "../support/redis";
import { http } from "../support/server";
import { friendGame, playOne, playUntilAcknowledged, startCluster as startOn, type Cluster, type ClusterStore, type TwoSeatGame } from "./support";

/** Makes `k` acknowledged moves in each game, through the given processes in turn. */
async function advance(bases: string[], games: TwoSeatGame[], k: number): Promise<Map<string, number>> {
  const acked = new Map<string, number>();
  for (const [i, g] of games.entries()) {
    for (let m = 0; m < k; m++) {
      const out = await playOne(bases[(i + m) % bases.length], g);
      assert.equal(out.status, 200, `move ${m} of ${g.id}: ${JSON.stringify(out)}`);
      acked.set(g.id, out.moveCount!);
    }
  }
  return acked;
}

/** Each game: the number of actions stored is at least what was acknowledged, and they replay in order. */
async function assertNothingLost(c: Cluster, acked: Map<string, number>): Promise<void> {
  for (const [id, n] of acked) {
    const actions = await c.store.games.listActions(id);
    assert.ok(actions.length >= n, `game ${id}: ${actions.length} stored, ${n} acknowledged`);
    assert.deepEqual(
      actions.map((a) => a.index),
      actions.map((_, i) => i),
      `game ${id}: the log has a gap or a fork`,
    );
  }
}

/** At most one room listing per game, and it is on the process the store names as owner. */
async function assertOneRoomPerGame(c: Cluster, ids: string[]): Promise<void> {
  const listings = await c.listings();
  for (const id of ids) {
    const g = (await c.store.games.getGame(id))!;
    const listed = listings.get(id);
    if (listed !== undefined) assert.equal(listed, g.owner, `game ${id} is listed on ${listed} but owned by ${g.owner}`);
  }
}

async function gamesOwnedBy(c: Cluster, games: TwoSeatGame[], processId: string): Promise<TwoSeatGame[]> {
  const owned: TwoSeatGame[] = [];
  for (const g of games) if ((await c.store.games.getGame(g.id))?.owner === processId) owned.push(g);
  return owned;
}

/** Friend games created round-robin over the processes; the victim is the process holding the most. */
async function gamesAndVictim(c: Cluster, total: number): Promise<{ games: TwoSeatGame[]; victim: number }> {
  const games: TwoSeatGame[] = [];
  const urls = c.procs.map((p) => p.url);
  for (let i = 0; i < total; i++) games.push(await friendGame(urls[i % urls.length], urls[(i + 1) % urls.length]));
  const counts = await Promise.all(c.processIds.map(async (id) => (await gamesOwnedBy(c, games, id)).length));
  return { games, victim: counts.indexOf(Math.max(...counts)) };
}

/**
 * The run's figures, printed once its checks have passed: moves acknowledged and kept, games claimed once
 * (one room each), and the time from the kill to each taken-over game's first acknowledged move (played one
 * game after the other, so the last is the time to take over them all).
 */
async function printFigures(
  c: Cluster,
  kind: ClusterStore,
  acked: Map<string, number>,
  moved: number,
  claimedOnce: number,
  tookOverMs: number[],
): Promise<void> {
  let acknowledged = 0;
  let kept = 0;
  let lost = 0;
  for (const [id, n] of acked) {
    const stored = (await c.store.games.listActions(id)).length;
    acknowledged += n;
    kept += Math.min(stored, n);
    lost += Math.max(0, n - stored);
  }
  const listings = await c.listings();
  let oneRoom = 0;
  for (const id of acked.keys()) {
    const listed = listings.get(id);
    if (listed === undefined || listed === (await c.store.games.getGame(id))?.owner) oneRoom++;
  }
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  console.log(
    `      figures (${kind}): ${acked.size} games, ${moved} on the killed process; ${acknowledged} moves acknowledged, ${kept} kept, ${lost} lost; ` +
      `one room per game (listed only on its owner): ${oneRoom} of ${acked.size}; taken-over games claimed once each: ${claimedOnce} of ${moved}; first move through a survivor after the kill: ${s(Math.min(...tookOverMs))}, all ${moved} games: ${s(Math.max(...tookOverMs))}`,
  );
}

const stores: ClusterStore[] = process.env.MONGODB_URL || congoAvailable() ? ["sqlite", "mongodb"] : ["sqlite"];
for (const kind of stores)
  describe(`End-to-end: games move to a live process when their process is lost (${kind})`, function () {
    this.timeout(180_000);
    let c: Cluster | undefined;
    const startCluster = (n: number) => startOn(n, {}, kind);

    before(function () {
      if (!redisAvailable()) {
        console.log("    failover tests skipped: redis-server is not installed (scripts/test.sh installs it)");
        this.skip();
      }
    });
    afterEach(async () => {
      await c?.stop();
      c = undefined;
    });

    it("re-creates each game of a SIGKILLed process once on the survivors, losing no acknowledged move", async () => {
      c = await startCluster(3);
      const { games, victim: v } = await gamesAndVictim(c, 6);
      const survivors = c.procs.filter((_, i) => i !== v).map((p) => p.url);
      const acked = await advance(
        c.procs.map((p) => p.url),
        games,
        3,
      );
      const victim = c.processIds[v];
      const theirs = await gamesOwnedBy(c, games, victim);
      assert.ok(theirs.length > 0);
      const epochs = new Map(await Promise.all(theirs.map(async (g) => [g.id, (await c!.store.games.getGame(g.id))!.ownerEpoch!] as const)));
      const killedAt = Date.now();
      await c.procs[v].stop("SIGKILL");

      // A spectator read is answered (from the store if need be) while the game has no live room.
      for (const g of theirs) {
        const r = await http(survivors[0], "GET", `/api/v1/games/${g.id}`);
        assert.equal(r.status, 200, r.text);
        assert.equal(r.json.moveCount, acked.get(g.id));
      }
      const tookOverMs: number[] = [];
      for (const [i, g] of theirs.entries()) {
        const { out, refusals } = await playUntilAcknowledged(survivors[i % 2], g);
        tookOverMs.push(Date.now() - killedAt);
        acked.set(g.id, out.moveCount!);
        // Until the game has a live room again, a seat is told to come back, never left hanging or misled.
        for (const r of refusals) assert.ok(r.status === 503 && r.retryAfter !== null, JSON.stringify(r));
      }
      // Both survivors noticed the death; each game was claimed exactly once more (one room, one new epoch).
      let claimedOnce = 0;
      for (const g of theirs) {
        const claimed: GameRecord = (await c.store.games.getGame(g.id))!;
        if (claimed.owner !== victim && claimed.ownerEpoch === epochs.get(g.id)! + 1) claimedOnce++;
        assert.notEqual(claimed.owner, victim);
        assert.equal(claimed.ownerEpoch, epochs.get(g.id)! + 1, `game ${g.id} was claimed more than once`);
      }
      assert.ok(!(await c.store.processes.listProcesses()).some((p) => p.id === victim), "the dead process is removed from the registry");
      assert.ok(![...(await c.listings()).values()].includes(victim), "no room is listed on the dead process");
      await assertNothingLost(c, acked);
      await assertOneRoomPerGame(
        c,
        games.map((g) => g.id),
      );
      await printFigures(c, kind, acked, theirs.length, claimedOnce, tookOverMs);
      // Every game plays on to the end through the survivors.
      for (const g of games) {
        for (let guard = 0; guard < 20; guard++) {
          const out = await playOne(survivors[guard % 2], g);
          assert.equal(out.status, 200, JSON.stringify(out));
          if (out.finished) break;
        }
        assert.equal((await c.store.games.getGame(g.id))!.status, "finished");
      }
    });

    it("moves the games of a SIGTERMed process to the others while REST agents keep playing", async () => {
      c = await startCluster(2);
      const { games, victim } = await gamesAndVictim(c, 6);
      const acked = await advance(
        c.procs.map((p) => p.url),
        games,
        2,
      );
      const live = c.procs[1 - victim];
      // Agents play every game through the surviving process before, during and after the SIGTERM.
      const unanswered = new Map(games.map((g) => [g.id, 0]));
      const players = games.map(async (g) => {
        for (let m = 0; m < 6; m++) {
          const { out, refusals } = await playUntilAcknowledged(live.url, g);
          acked.set(g.id, out.moveCount!);
          unanswered.set(g.id, unanswered.get(g.id)! + refusals.filter((r) => r.unanswered).length);
          // A client may be asked to come back (503 with Retry-After) while the game moves; nothing else.
          for (const r of refusals) assert.ok(r.status === 503 && r.retryAfter !== null, JSON.stringify(r));
        }
      });
      await new Promise((r) => setTimeout(r, 200));
      await c.procs[victim].stop("SIGTERM");
      await Promise.all(players);
      await assertNothingLost(c, acked);
      await assertOneRoomPerGame(
        c,
        games.map((g) => g.id),
      );
      // Six moves acknowledged on top of the first two; a move whose answer the ending process never gave is
      // answered from the store when it was kept, so only one still under way when refused can add to them.
      for (const g of games) {
        const stored = (await c.store.games.getGame(g.id))!.moveCount;
        assert.ok(
          stored >= 8 && stored <= 8 + unanswered.get(g.id)!,
          `game ${g.id}: ${stored} moves stored, 8 acknowledged, ${unanswered.get(g.id)} unanswered`,
        );
      }
    });

    it("keeps one room per game when a stalled owner comes back after its games moved (SIGSTOP, SIGCONT)", async () => {
      c = await startCluster(2);
      const { games, victim } = await gamesAndVictim(c, 4);
      const live = c.procs[1 - victim];
      const acked = await advance(
        c.procs.map((p) => p.url),
        games,
        2,
      );
      const stalled = c.processIds[victim];
      const theirs = await gamesOwnedBy(c, games, stalled);
      assert.ok(theirs.length > 0);
      // A spectator watching one of its games over WebSocket, connected to the stalled process itself.
      const watcher = await new Client(c.procs[victim].url).joinById(theirs[0].id);
      const leftWith = new Promise<number>((resolve) => watcher.onLeave((code) => resolve(code)));
      c.procs[victim].child.kill("SIGSTOP");
      for (const g of theirs) acked.set(g.id, (await playUntilAcknowledged(live.url, g)).out.moveCount!);
      c.procs[victim].child.kill("SIGCONT");
      // The process that comes back learns it was declared dead, closes its stale rooms and registers again.
      const deadline = Date.now() + 20_000;
      while (!(await c.store.processes.listProcesses()).some((p) => p.id === stalled)) {
        assert.ok(Date.now() < deadline, "the stalled process did not register again");
        await new Promise((r) => setTimeout(r, 100));
      }
      // Its stale room sent the spectator away with the "game moved" code, to rejoin by id.
      assert.equal(await leftWith, GAME_MOVED_CODE);
      // Moves through either process land on the one room of each game; none is lost or forked.
      for (const g of theirs) {
        for (const base of [c.procs[victim].url, live.url]) {
          const out = await playUntilAcknowledged(base, g);
          assert.equal(out.out.moveCount, acked.get(g.id)! + 1, `game ${g.id}: a move was lost or played twice`);
          acked.set(g.id, out.out.moveCount);
        }
      }
      await assertNothingLost(c, acked);
      await assertOneRoomPerGame(
        c,
        theirs.map((g) => g.id),
      );
      for (const g of theirs) assert.notEqual((await c.store.games.getGame(g.id))!.owner, stalled);
    });
  });
