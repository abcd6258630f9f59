/**
 * Scale-out figures, measured side by side in one run on the same cores:
 *  1. Recovery after SIGKILL: three processes (private Redis, one SQLite file); friend games are made until
 *     the process holding the most has `--games` of them; it is killed with SIGKILL, and for each of its
 *     games the time from the kill to the first acknowledged move through a survivor is recorded (median,
 *     p99), along with the slowest spectator read (`GET /games/{id}`) during the outage.
 *  2. Moves per second of one process against three: `--concurrency` REST game loops (seat sync, move) for
 *     `--seconds`, spread over the processes.
 *     The two run alternately for `--rounds` rounds (the machine is shared: a load change between two single
 *     runs would read as a difference between them); the ratio is the median of the rounds' ratios.
 *     Each game loop talks to one process, which is not always the one holding the game's room: like a
 *     round-robin front, some calls go through Colyseus' remote room calls over Redis.
 *   npm run bench:cluster -- [--games 20] [--seconds 10] [--concurrency 24] [--rounds 2] [--store sqlite|mongodb] [--verbose] [--json]
 * With --store mongodb the processes share a private CongoDB (a MongoDB-wire-compatible server in memory,
 * docs/DEPLOY.md) instead of the SQLite file.
 */
import { launchCluster, type LaunchedCluster } from "../src/services/cluster/launch";
import type { Store } from "../src/store";
import { MongoStore } from "../src/store/mongo";
import { SqliteStore } from "../src/store/sqlite";
import { args, HttpClient, median, num, openFriendGame, percentile, pickMove, round, sleep, table, type FriendGame, type Seat } from "./lib/common";

/** --verbose: the processes' own output (errors only) on stderr. */
const onOutput = process.argv.includes("--verbose")
  ? (name: string, chunk: string) => {
      if (name !== "redis") process.stderr.write(`[${name}] ${chunk}`);
    }
  : undefined;
const ENV = { LOG_LEVEL: "error", RATE_LIMIT_SCALE: "1000", HOUSE_DELAY_MS: "0", CLUSTER_HEARTBEAT_MS: "500", CLUSTER_DEAD_AFTER_MS: "2000" };

/** One move by the seat to play: its sync view, then a legal placement. "finished", or the refusal status. */
async function moveOnce(http: HttpClient, g: FriendGame): Promise<number | "finished"> {
  const rec = await http.request("GET", `/api/v1/games/${g.gameId}`, { timeoutMs: 10_000 });
  if (rec.status !== 200) return rec.status;
  if (rec.json.status === "finished") return "finished";
  const seat = rec.json.turn as Seat;
  const view = await http.request("GET", `/api/v1/games/${g.gameId}/sync`, { token: g.tokens[seat], timeoutMs: 10_000 });
  if (view.status !== 200) return view.status;
  if (view.json.status === "finished") return "finished";
  const move = pickMove(
    view.json.state.hand.map((c: { id: string }) => c.id),
    view.json.state.board.map((c: { square: string }) => c.square),
  );
  if (!move) return 409;
  const res = await http.request("POST", `/api/v1/games/${g.gameId}/moves`, { body: move, token: g.tokens[seat], timeoutMs: 10_000 });
  return res.status;
}

type StoreKind = "sqlite" | "mongodb";

async function recovery(games: number, kind: StoreKind) {
  const cluster = await launchCluster({ processes: 3, env: ENV, store: kind, onOutput });
  const store: Store = cluster.mongodbUrl ? new MongoStore({ url: cluster.mongodbUrl }) : new SqliteStore({ path: cluster.database });
  await store.init();
  try {
    const clients = cluster.members.map((m) => new HttpClient(m.url));
    const ids = await Promise.all(clients.map(async (c) => (await c.json("GET", "/healthz")).processId as string));
    const made: FriendGame[] = [];
    const ownedBy = async (id: string) =>
      (await Promise.all(made.map(async (g) => ((await store.games.getGame(g.gameId))?.owner === id ? g : null)))).filter((g): g is FriendGame => g !== null);
    let victim = 0;
    for (let i = 0; ; i++) {
      made.push(await openFriendGame(clients[i % 3], "recovery"));
      if (made.length % 3 === 0) {
        const counts = await Promise.all(ids.map(async (id) => (await ownedBy(id)).length));
        victim = counts.indexOf(Math.max(...counts));
        if (counts[victim] >= games) break;
      }
    }
    const theirs = (await ownedBy(ids[victim])).slice(0, games);
    for (const g of theirs) for (let m = 0; m < 2; m++) if ((await moveOnce(clients[victim], g)) !== 200) throw new Error("setup move refused");
    const survivors = clients.filter((_, i) => i !== victim);
    const killedAt = Date.now();
    await cluster.signal(victim, "SIGKILL");
    let reading = true;
    const readMs: number[] = [];
    const prober = (async () => {
      for (let i = 0; reading; i++) {
        const started = Date.now();
        await survivors[i % 2].request("GET", `/api/v1/games/${theirs[i % theirs.length].gameId}`);
        readMs.push(Date.now() - started);
        await sleep(50);
      }
    })();
    const recoveredMs = await Promise.all(
      theirs.map(async (g, i) => {
        for (;;) {
          const out = await moveOnce(survivors[i % 2], g);
          if (out === 200) return Date.now() - killedAt;
          if (Date.now() - killedAt > 60_000) throw new Error(`game ${g.gameId} not playable 60 s after the kill`);
          await sleep(50);
        }
      }),
    );
    reading = false;
    await prober;
    for (const c of clients) c.close();
    return {
      games: theirs.length,
      medianMs: median(recoveredMs),
      p99Ms: percentile(recoveredMs, 99),
      maxMs: Math.max(...recoveredMs),
      spectatorReadMaxMs: Math.max(...readMs),
      spectatorReads: readMs.length,
    };
  } finally {
    await store.close();
    await cluster.stop();
  }
}

async function throughput(processes: number, seconds: number, concurrency: number, kind: StoreKind) {
  const cluster: LaunchedCluster = await launchCluster({ processes, env: ENV, store: kind, onOutput });
  try {
    const clients = cluster.members.map((m) => new HttpClient(m.url));
    let acked = 0;
    let refused = 0;
    const until = Date.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: concurrency }, async (_, i) => {
        const http = clients[i % clients.length];
        while (Date.now() < until) {
          const g = await openFriendGame(http, "tput");
          for (;;) {
            if (Date.now() >= until) return;
            const out = await moveOnce(http, g);
            if (out === "finished") break;
            if (out === 200) acked++;
            else refused++;
          }
        }
      }),
    );
    for (const c of clients) c.close();
    return { processes, movesPerSecond: round(acked / seconds), acked, refused };
  } finally {
    await cluster.stop();
  }
}

async function main() {
  const a = args();
  const games = num(a, "games", 20, 1, 200);
  const seconds = num(a, "seconds", 10, 2, 300);
  const concurrency = num(a, "concurrency", 24, 1, 512);
  const rounds = num(a, "rounds", 2, 1, 10);
  const kind = a.get("store") ?? "sqlite";
  if (kind !== "sqlite" && kind !== "mongodb") throw new Error("--store is sqlite or mongodb");
  const rec = await recovery(games, kind);
  const runs: Array<{ one: Awaited<ReturnType<typeof throughput>>; three: Awaited<ReturnType<typeof throughput>>; ratio: number }> = [];
  for (let r = 0; r < rounds; r++) {
    const one = await throughput(1, seconds, concurrency, kind);
    const three = await throughput(3, seconds, concurrency, kind);
    runs.push({ one, three, ratio: round(three.movesPerSecond / Math.max(one.movesPerSecond, 0.001), 2) });
  }
  const out = { store: kind, recovery: rec, throughput: { rounds: runs, ratio: median(runs.map((r) => r.ratio)) } };
  if (!a.has("json")) {
    console.log(
      table(
        `Recovery after SIGKILL (${rec.games} games of the killed process)`,
        ["median ms", "p99 ms", "max ms", "slowest spectator read ms"],
        [[rec.medianMs, rec.p99Ms, rec.maxMs, rec.spectatorReadMaxMs]],
      ),
    );
    console.log(
      table(
        `\nREST moves per second (${concurrency} game loops, ${seconds} s each, alternating)`,
        ["round", "1 process", "3 processes", "3/1", "refused"],
        runs.map((r, i) => [i + 1, r.one.movesPerSecond, r.three.movesPerSecond, r.ratio, r.one.refused + r.three.refused]),
      ),
    );
    console.log(`three/one (median of rounds): ${out.throughput.ratio}`);
  }
  console.log(JSON.stringify(out));
}

main().then(
  () => process.exit(0),
  (err: Error) => {
    console.error(err);
    process.exit(1);
  },
);
