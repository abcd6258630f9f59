/**
 * The clients of hardening-bench's floods on the open data, in a process of their own (forked by the bench,
 * commands over IPC), so that neither their reading nor their waiting runs on the server's event loop. The
 * bench starts two: a prober asking GET /healthz at a fixed rate, and a flooder that either
 *  - opens many exports at once from a few loopback addresses and stalls them (stalledGet: the head read, then
 *    nothing), holding them until told to release them, or
 *  - runs many readers of `/log/entries?count=1000`, each from a loopback address of its own and reading every
 *    answer whole, one read after another until the window ends.
 */
import http from "node:http";
import { stalledGet, type HeldAnswer } from "../../test/support/slow-reader";
import { HttpClient, IDLE_SOCKET_MS, median, nowMs, percentile, round, serveParent, sleep, type Message } from "./common";

/** The statuses of a flood's answers, by code ("error <code>": no answer, the connection failed). */
export type Statuses = Record<string, number>;

export interface ProbeFigures {
  requests: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  errors: number;
}

export interface EntriesFigures {
  readers: number;
  reads: number;
  statuses: Statuses;
  mb: number;
  seconds: number;
}

/** A refused reader waits this long before it tries again: a second per address keeps within the read limit. */
const REFUSED_PAUSE_MS = 1000;

/** The `i`th reader's own loopback address, from 127.0.1.1 on (a /24 of 250 each). */
export const readerAddress = (i: number): string => `127.0.${1 + Math.floor(i / 250)}.${1 + (i % 250)}`;

const count = (statuses: Statuses, key: number | string) => (statuses[key] = (statuses[key] ?? 0) + 1);

/**
 * GET /healthz `rate` times a second for `seconds`, each on time whether or not the ones before have been
 * answered (a stalled server shows as late answers, not as fewer questions).
 */
async function probe(url: string, rate: number, seconds: number): Promise<ProbeFigures> {
  const client = new HttpClient(url, 64);
  await client.request("GET", "/healthz");
  const rtts: number[] = [];
  let errors = 0;
  const asked: Promise<unknown>[] = [];
  const t0 = nowMs();
  const n = Math.max(1, Math.round(rate * seconds));
  for (let i = 0; i < n; i++) {
    await sleep(Math.max(0, t0 + (i * 1000) / rate - nowMs()));
    const t = nowMs();
    asked.push(
      client.request("GET", "/healthz", { parse: false }).then(
        (r) => (r.status === 200 ? rtts.push(nowMs() - t) : errors++),
        () => errors++,
      ),
    );
  }
  await Promise.all(asked);
  client.close();
  return { requests: n, p50Ms: round(median(rtts), 2), p99Ms: round(percentile(rtts, 99), 1), maxMs: round(Math.max(0, ...rtts), 1), errors };
}

const held: HeldAnswer[] = [];

/** Opens `clients` exports of [0, size) at once, the ith from addresses[i % n]; the admitted ones stall. */
async function openExports(url: string, clients: number, addresses: string[], size: number): Promise<Statuses> {
  const statuses: Statuses = {};
  await Promise.all(
    Array.from({ length: clients }, async (_, i) => {
      try {
        const answer = await stalledGet(url, `/api/v1/exports/games?from=0&to=${size}`, addresses[i % addresses.length]);
        count(statuses, answer.status);
        if (answer.status === 200) held.push(answer);
      } catch (e) {
        count(statuses, `error ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      }
    }),
  );
  return statuses;
}

/** One GET read whole: its status and the bytes of its body. */
function getWhole(agent: http.Agent, base: string, path: string, localAddress: string): Promise<{ status: number; bytes: number }> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = http.get({ host: url.hostname, port: url.port, path: url.pathname + url.search, agent, localAddress }, (res) => {
      let bytes = 0;
      res.on("data", (c: Buffer) => (bytes += c.length));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, bytes }));
      res.on("error", reject);
    });
    req.setTimeout(60_000, () => req.destroy(new Error("no answer within 60 s")));
    req.on("error", reject);
  });
}

/** `readers` readers of `per` entries at a random index of [0, size), each from its own address, for `seconds`. */
async function readEntries(url: string, readers: number, size: number, per: number, seconds: number): Promise<EntriesFigures> {
  const statuses: Statuses = {};
  let bytes = 0;
  const t0 = nowMs();
  const until = t0 + seconds * 1000;
  await Promise.all(
    Array.from({ length: readers }, async (_, i) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1, timeout: IDLE_SOCKET_MS });
      while (nowMs() < until) {
        const from = Math.floor(Math.random() * Math.max(1, size - per));
        const answer = await getWhole(agent, url, `/api/v1/log/entries?from=${from}&count=${per}`, readerAddress(i)).catch((e: NodeJS.ErrnoException) => {
          count(statuses, `error ${e.code ?? e.message}`);
          return null;
        });
        if (answer) count(statuses, answer.status);
        if (answer?.status === 200) bytes += answer.bytes;
        else await sleep(REFUSED_PAUSE_MS);
      }
      agent.destroy();
    }),
  );
  const reads = Object.values(statuses).reduce((a, b) => a + b, 0);
  return { readers, reads, statuses, mb: round(bytes / 1024 / 1024, 1), seconds: round((nowMs() - t0) / 1000, 1) };
}

serveParent(async (m: Message) => {
  const url = String(m.url);
  switch (m.type) {
    case "probe":
      return { figures: await probe(url, Number(m.rate), Number(m.seconds)) };
    case "exports":
      return { statuses: await openExports(url, Number(m.clients), m.addresses as string[], Number(m.size)) };
    case "release":
      held.splice(0).forEach((h) => h.close());
      return {};
    case "entries":
      return { figures: await readEntries(url, Number(m.readers), Number(m.size), Number(m.per), Number(m.seconds)) };
    default:
      throw new Error(`unknown command ${m.type}`);
  }
});
