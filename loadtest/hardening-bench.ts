/**
 * The figures of four attacks the service must withstand, measured in one process against the real
 * composition root, for a before and after: run it in this checkout, and with the same file copied into an
 * earlier checkout (same node_modules) for the figure before.
 *  - slow subscriber: 32 `game.finished` subscriptions on one callback host answering 204 after 4.8 s, three
 *    events, then the ms until another host's subscriber had all three deliveries, and a fourth event's;
 *  - slow subscriber on a shared host: the same, with the other subscriber's receiver on the same callback
 *    host (same address, another port), with 32 and with 96 slow subscriptions (more than the 64 delivery
 *    slots); its delay is judged against the bound of 2 s;
 *  - endless answers: 16 callbacks answering 200 with a body that never ends, the MB they managed to push
 *    and the ms until every answer was over (the delivery deadline is 8 s here);
 *  - MCP batch: 5 POSTs of a JSON-RPC batch of 100 `create_game` calls, the games they created;
 *  - 10 MB body: 10 POSTs of a 10 MB body to each of `/api/v1/games`, `/mcp` and matchmaking, the answers
 *    that were a 413 read with no EPIPE or reset; then 30 POSTs of it to each, chunked (no Content-Length).
 * `--only bodies` runs the body attacks alone (the slow subscribers take minutes on an earlier checkout).
 * Prints a table, then one JSON line (`{"bench":"hardening",...}`). Loopback only; a minute or so.
 *   npx tsx loadtest/hardening-bench.ts
 */
import https from "node:https";
import type { AddressInfo } from "node:net";
import { createCallbackClient, generateSecret } from "../src/services/events/index";
import { echo, harness, startReceiver, subBody, testCert } from "../test/events/helpers";
import { postBody, statusOf } from "../test/support/post-body";
import { bootServer, http } from "../test/support/server";
import { round, table } from "./lib/common";

/** `slowHost` "localhost" is another callback host than the fast receiver's 127.0.0.1; "127.0.0.1" is the same. */
async function slowSubscriber(slowHost: "localhost" | "127.0.0.1", count = 32) {
  const h = await harness({ timeoutMs: 30_000 });
  const slow = await startReceiver();
  const fast = await startReceiver();
  try {
    slow.respond = (r) => (r.json?.type === "verification" ? echo(r, 0) : { status: 204, delayMs: 4800 });
    for (let i = 0; i < count; i++) await h.events.subscriptions.subscribe(subBody(`https://${slowHost}:${slow.port}/hook${i}`, generateSecret()));
    await h.events.subscriptions.subscribe(subBody(fast.url, generateSecret()));
    const t0 = performance.now();
    for (let i = 0; i < 3; i++) h.events.emit({ name: "game.finished", match: { game_id: "g1" }, data: { i } });
    await fast.waitFor(3, 120_000);
    const threeMs = performance.now() - t0;
    const slowAnswered = slow.answered - count;
    const t4 = performance.now();
    h.events.emit({ name: "game.finished", match: { game_id: "g1" }, data: { i: 3 } });
    await fast.waitFor(4, 120_000);
    return { threeMs: round(threeMs, 0), fourthMs: round(performance.now() - t4, 0), slowAnsweredMeanwhile: slowAnswered };
  } finally {
    await h.close();
    await slow.close();
    await fast.close();
  }
}

async function endlessAnswers() {
  const { key, cert } = testCert();
  let written = 0;
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  const server = https.createServer({ key, cert }, (req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200);
      const more = (): void => {
        while (!res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", more);
        }
      };
      more();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  try {
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    const client = createCallbackClient({ allowPrivate: true, ca: cert, timeoutMs: 8_000 });
    const t0 = performance.now();
    await Promise.all(Array.from({ length: 16 }, () => client.post(url, "{}", {}).catch(() => undefined)));
    const overMs = performance.now() - t0;
    await new Promise((r) => setTimeout(r, 200));
    return { overMs: round(overMs, 0), pushedMB: round(written / 1024 / 1024, 1) };
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

const ACCEPT = { accept: "application/json, text/event-stream" };

async function mcpBatch(url: string) {
  const init = await http(
    url,
    "POST",
    "/mcp",
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "hardening-bench", version: "1" } },
    },
    ACCEPT,
  );
  const session = { ...ACCEPT, "mcp-session-id": init.headers.get("mcp-session-id") as string };
  await http(url, "POST", "/mcp", { jsonrpc: "2.0", method: "notifications/initialized" }, session);
  const count = async () => {
    let n = 0;
    let cursor: string | undefined;
    do {
      const page = await http(url, "GET", `/api/v1/games?status=waiting&limit=100${cursor ? `&cursor=${cursor}` : ""}`);
      n += page.json.games.length;
      cursor = page.json.nextCursor ?? undefined;
    } while (cursor);
    return n;
  };
  const before = await count();
  const batch = Array.from({ length: 100 }, (_, i) => ({
    jsonrpc: "2.0",
    id: 10 + i,
    method: "tools/call",
    params: { name: "create_game", arguments: { opponent: "friend" } },
  }));
  const statuses = new Set<number>();
  for (let i = 0; i < 5; i++) statuses.add((await http(url, "POST", "/mcp", batch, session)).status);
  return { gamesCreated: (await count()) - before, statuses: [...statuses].join("/") };
}

async function largeBodies(url: string) {
  const body = Buffer.alloc(10 * 1024 * 1024, 0x20);
  const out: Record<string, number> = {};
  for (const path of ["/api/v1/games", "/mcp", "/matchmake/joinOrCreate/game"]) {
    let clean = 0;
    for (let i = 0; i < 10; i++) if (statusOf(await postBody(url, path, body)) === "413") clean++;
    out[path] = clean;
  }
  return out;
}

async function largeChunkedBodies(url: string) {
  const body = Buffer.alloc(10 * 1024 * 1024, 0x20);
  const out: Record<string, number> = {};
  for (const path of ["/api/v1/games", "/mcp", "/matchmake/joinOrCreate/game"]) {
    let clean = 0;
    for (let i = 0; i < 30; i++) if (statusOf(await postBody(url, path, body, true)) === "413") clean++;
    out[path] = clean;
  }
  return out;
}

/** The figures of one row: what was attacked and what came of it. */
type Row = [string, string];

async function subscriberRows(): Promise<{ rows: Row[]; figures: object }> {
  const slow = await slowSubscriber("localhost");
  const shared = await slowSubscriber("127.0.0.1");
  const shared96 = await slowSubscriber("127.0.0.1", 96);
  const endless = await endlessAnswers();
  const rows: Row[] = [
    [
      "slow subscriber beside a fast one",
      `fast one's 3 deliveries after ${slow.threeMs} ms (slow answers meanwhile: ${slow.slowAnsweredMeanwhile}), a 4th after ${slow.fourthMs} ms`,
    ],
    [
      "slow subscriber on the same host (bound 2000 ms)",
      `healthy one's 3 deliveries after ${shared.threeMs} ms (slow answers meanwhile: ${shared.slowAnsweredMeanwhile}), a 4th after ${shared.fourthMs} ms`,
    ],
    [
      "96 slow subscriptions on the same host (bound 2000 ms)",
      `healthy one's 3 deliveries after ${shared96.threeMs} ms (slow answers meanwhile: ${shared96.slowAnsweredMeanwhile}), a 4th after ${shared96.fourthMs} ms`,
    ],
    ["16 endless answers", `${endless.pushedMB} MB pushed, all over after ${endless.overMs} ms`],
  ];
  return { rows, figures: { slow, shared, shared96, endless } };
}

async function serverRows(): Promise<{ rows: Row[]; figures: object }> {
  const server = await bootServer();
  try {
    const batch = await mcpBatch(server.url);
    const bodies = await largeBodies(server.url);
    const chunked = await largeChunkedBodies(server.url);
    const rows: Row[] = [
      ["5 MCP batches of 100 create_game", `${batch.gamesCreated} games created (HTTP ${batch.statuses})`],
      ...Object.entries(bodies).map(([path, clean]): Row => [`10 MB body to ${path}`, `${clean}/10 answered 413 with no EPIPE or reset`]),
      ...Object.entries(chunked).map(([path, clean]): Row => [`10 MB chunked body to ${path}`, `${clean}/30 answered 413 with no EPIPE or reset`]),
    ];
    return { rows, figures: { batch, bodies, chunked } };
  } finally {
    await server.close();
  }
}

async function main() {
  const onlyBodies = process.argv.includes("--only") && process.argv[process.argv.indexOf("--only") + 1] === "bodies";
  const subscribers = onlyBodies ? { rows: [], figures: {} } : await subscriberRows();
  const served = await serverRows();
  console.log(table("hardening figures", ["attack", "figure"], [...subscribers.rows, ...served.rows]));
  console.log(JSON.stringify({ bench: "hardening", ...subscribers.figures, ...served.figures }));
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
