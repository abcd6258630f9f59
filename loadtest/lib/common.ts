/**
 * Shared plumbing of the benchmarks: a bounded HTTP client (node:http keep-alive), the REST calls that set
 * up games, the benchmark server (the real composition root on a loopback port), the load-generator child
 * process, memory and CPU sampling, and the output (a table, then one JSON line).
 */
import { fork, type ChildProcess } from "node:child_process";
import { setPriority } from "node:os";
import http from "node:http";
import v8 from "node:v8";
import vm from "node:vm";
import type { Client, Room } from "@colyseus/sdk";
import type { SeatReservation } from "../../test/support/ws";
import { profileWindow } from "./profile";

// ---- arguments -------------------------------------------------------------------------------------

/** `--name value` / `--name=value` flags; numbers are checked and bounded by the caller's defaults. */
export function args(argv = process.argv.slice(2)): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith("--")) continue;
    const eq = a.indexOf("=");
    if (eq > 0) out.set(a.slice(2, eq), a.slice(eq + 1));
    else if (i + 1 < argv.length && !argv[i + 1].startsWith("--")) out.set(a.slice(2), argv[++i]);
    else out.set(a.slice(2), "true");
  }
  return out;
}

export function num(a: Map<string, string>, name: string, dflt: number, min: number, max: number): number {
  const raw = a.get(name);
  if (raw === undefined) return dflt;
  const v = Number(raw);
  if (!Number.isFinite(v) || v < min || v > max) throw new Error(`--${name} must be a number in [${min}, ${max}] (got ${raw})`);
  return v;
}

// ---- small utilities -------------------------------------------------------------------------------

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
export const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export function median(values: number[]): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}
export const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

/** A port that was free a moment ago (shared with the test helpers). */
export { freePort } from "../../test/support/server";

/** Refuses anything but a loopback endpoint: these tools generate load and must never aim it elsewhere. */
export function assertLoopback(url: string): void {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
  if (!["127.0.0.1", "localhost", "::1"].includes(host) && !host.startsWith("127.")) {
    throw new Error(`refusing to load ${url}: the benchmarks run against loopback endpoints only`);
  }
}

// ---- output ----------------------------------------------------------------------------------------

export function table(title: string, header: string[], rows: (string | number)[][]): string {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? "").length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  const sep = widths.map((w) => "-".repeat(w)).join("  ");
  return [title, line(header), sep, ...cells.slice(1).map(line)].join("\n");
}

// ---- HTTP client -----------------------------------------------------------------------------------

export interface HttpResult {
  status: number;
  body: string;
  json?: any;
}

/**
 * How long a pooled socket may sit idle before this client drops it: under Node's default server
 * keepAliveTimeout (5 s), so the client, not the server, ends an idle connection. Otherwise a request can
 * go out on a socket at the very moment the server closes it, and fails with `read ECONNRESET`. Node 20's
 * agent only applies the server's `Keep-Alive: timeout=5` hint to a timeout it was given (with none, free
 * sockets never expire), so one is given; a server announcing less still shortens it.
 */
export const IDLE_SOCKET_MS = 4000;

/** Request methods that may be sent twice with the effect of once (RFC 9110, 9.2.2). */
const IDEMPOTENT = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);

/** One keep-alive client for a benchmark: every request of a run goes through the same agent. */
export class HttpClient {
  readonly agent: http.Agent;
  /** Idempotent requests sent again after their reused socket was found closed (see `request`). */
  resent = 0;
  constructor(
    readonly base: string,
    maxSockets = 64,
  ) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets, timeout: IDLE_SOCKET_MS });
  }

  /**
   * One request. A request that fails on a reused keep-alive socket before any answer (the server closed
   * it in the same instant) is sent once more on a fresh socket when its method is idempotent. A POST is
   * not: the server cannot be shown not to have acted on it (here it creates or joins a game), so a second
   * send could do it twice; it fails and is counted as an error. The idle limit above keeps that rare.
   */
  async request(method: string, path: string, opts: { body?: unknown; token?: string; parse?: boolean; timeoutMs?: number } = {}): Promise<HttpResult> {
    try {
      return await this.send(method, path, opts);
    } catch (e) {
      if (!(e as { reusedSocket?: boolean }).reusedSocket || !IDEMPOTENT.has(method)) throw e;
      this.resent++;
      return this.send(method, path, opts);
    }
  }

  private send(method: string, path: string, opts: { body?: unknown; token?: string; parse?: boolean; timeoutMs?: number }): Promise<HttpResult> {
    const url = new URL(path, this.base);
    const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const headers: Record<string, string> = { accept: "application/json" };
    if (payload !== undefined) {
      headers["content-type"] = "application/json";
      headers["content-length"] = String(Buffer.byteLength(payload));
    }
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    return new Promise((resolve, reject) => {
      const req = http.request({ agent: this.agent, hostname: url.hostname, port: url.port, path: url.pathname + url.search, method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const body = Buffer.concat(chunks).toString("utf8");
          const out: HttpResult = { status: res.statusCode ?? 0, body };
          if (opts.parse !== false && body) {
            try {
              out.json = JSON.parse(body);
            } catch {
              /* not JSON */
            }
          }
          resolve(out);
        });
        res.on("error", reject);
      });
      let answered = false;
      req.on("response", () => (answered = true));
      req.setTimeout(opts.timeoutMs ?? 30_000, () => req.destroy(new Error(`timed out after ${opts.timeoutMs ?? 30_000} ms`)));
      req.on("error", (e: NodeJS.ErrnoException) => {
        // Only a connection reset or broken pipe before any answer, on a socket that had served before.
        const stale = req.reusedSocket && !answered && (e.code === "ECONNRESET" || e.code === "EPIPE");
        reject(Object.assign(new Error(`${method} ${path}: ${e.message}${stale ? " (reused keep-alive socket)" : ""}`, { cause: e }), { reusedSocket: stale }));
      });
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  }

  async json(method: string, path: string, opts: { body?: unknown; token?: string; expect?: number[] } = {}): Promise<any> {
    for (let attempt = 0; ; attempt++) {
      const res = await this.request(method, path, opts);
      if (res.status === 429 && attempt < 3) {
        await sleep(1000);
        continue;
      }
      if (!(opts.expect ?? [200, 201]).includes(res.status)) throw new Error(`${method} ${path} -> ${res.status}: ${res.body.slice(0, 300)}`);
      return res.json;
    }
  }

  close() {
    this.agent.destroy();
  }
}

// ---- games over REST -------------------------------------------------------------------------------

export type Seat = "A" | "B";
export interface FriendGame {
  gameId: string;
  tokens: Record<Seat, string>;
  /** Each seat's WebSocket seat reservation, when the game was opened with `reserveSeats`. */
  reservations?: Record<Seat, SeatReservation>;
}

/**
 * A friend game with both seats taken (status active): create, then join with the invite code. With
 * `reserveSeats`, both requests also ask for their seat's WebSocket seat reservation (`reserveSeat`).
 */
export async function openFriendGame(http: HttpClient, name = "bench", turnSeconds?: number, reserveSeats = false): Promise<FriendGame> {
  const reserve = reserveSeats ? { reserveSeat: true } : {};
  const created = await http.json("POST", "/api/v1/games", {
    body: { opponent: "friend", name: `${name}-a`, ...(turnSeconds ? { turnSeconds } : {}), ...reserve },
  });
  const joined = await http.json("POST", "/api/v1/games/join", { body: { code: created.code, name: `${name}-b`, ...reserve } });
  const tokens = { [created.seat]: created.playerToken, [joined.seat]: joined.playerToken } as Record<Seat, string>;
  const reservations = reserveSeats
    ? ({ [created.seat]: created.seatReservation, [joined.seat]: joined.seatReservation } as Record<Seat, SeatReservation>)
    : undefined;
  return { gameId: created.game.id, tokens, ...(reservations ? { reservations } : {}) };
}

/** Connects a seat of the game over WebSocket: with its seat reservation when it has one, else by `joinById`. */
export function joinSeat(sdk: Client, game: FriendGame, seat: Seat): Promise<Room> {
  const reservation = game.reservations?.[seat];
  return reservation ? sdk.consumeSeatReservation(reservation) : sdk.joinById(game.gameId, { playerToken: game.tokens[seat] });
}

export const SQUARES = ["a1", "b1", "c1", "d1", "a2", "b2", "c2", "d2", "a3", "b3", "c3", "d3", "a4", "b4", "c4", "d4"];

/** A legal placement: any card of the hand on any empty square (every empty square is legal). */
export function pickMove(hand: string[], occupied: Iterable<string>): { card: string; square: string } | null {
  const taken = new Set(occupied);
  const empty = SQUARES.filter((s) => !taken.has(s));
  if (hand.length === 0 || empty.length === 0) return null;
  return { card: hand[Math.floor(Math.random() * hand.length)], square: empty[Math.floor(Math.random() * empty.length)] };
}

// ---- the server side -------------------------------------------------------------------------------

/** Global gc: the flag when given (--expose-gc), otherwise switched on at run time. */
export function gcFunction(): () => void {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g) return g;
  v8.setFlagsFromString("--expose-gc");
  return vm.runInNewContext("gc") as () => void;
}

export interface MemSample {
  rss: number;
  heapUsed: number;
  external: number;
}

export async function settledMemory(): Promise<MemSample> {
  const gc = gcFunction();
  for (let i = 0; i < 3; i++) {
    gc();
    await sleep(50);
  }
  const m = process.memoryUsage();
  return { rss: m.rss, heapUsed: m.heapUsed, external: m.external };
}

/** Server CPU in microseconds (user + system) since `from`. */
export function cpuSince(from: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(from);
  return d.user + d.system;
}

/**
 * Starts a reading of the server's CPU: another process's, asked of it with `serverCpuUs` (a stock server in a
 * process of its own), or without it this process's (every thread). The function returned gives the
 * microseconds spent since the start.
 */
export async function serverCpuFrom(serverCpuUs?: () => Promise<number>): Promise<() => Promise<number>> {
  if (serverCpuUs) {
    const o0 = await serverCpuUs();
    return async () => (await serverCpuUs()) - o0;
  }
  const c0 = process.cpuUsage();
  return () => Promise.resolve(cpuSince(c0));
}

// ---- the load-generator child ----------------------------------------------------------------------

export type Message = { type: string; [k: string]: unknown };

/** Runs this same file as the load generator in a second process (same cores), talking over IPC. */
export class Child {
  private waiting: Array<{ type: string; resolve: (m: Message) => void; reject: (e: Error) => void }> = [];
  readonly proc: ChildProcess;
  private exited = false;

  /**
   * `nice` (0 by default) lowers the load generator's scheduling priority: on a machine whose cores it shares
   * with the server, the server then gets a core first when both want one, as it would with its clients on
   * other machines (the round trips still include the generator's own wait for a core).
   */
  constructor(file: string, argv: string[], nice = 0) {
    // execArgv is inherited: the child runs under the same tsx loader as the parent.
    const execArgv = process.execArgv.filter((a) => a !== "--expose-gc");
    this.proc = fork(file, ["--role", "client", ...argv], { execArgv, stdio: ["ignore", "inherit", "inherit", "ipc"] });
    if (nice !== 0 && this.proc.pid !== undefined) setPriority(this.proc.pid, nice);
    this.proc.on("message", (m: Message) => {
      const i = this.waiting.findIndex((w) => w.type === m.type || m.type === "error");
      if (i < 0) return;
      const [w] = this.waiting.splice(i, 1);
      if (m.type === "error") w.reject(new Error(`load generator: ${String(m.message)}`));
      else w.resolve(m);
    });
    this.proc.on("exit", (code) => {
      this.exited = true;
      for (const w of this.waiting.splice(0)) w.reject(new Error(`load generator exited (${code}) while the benchmark waited for "${w.type}"`));
    });
  }

  /** Sends a command and waits for the reply of the given type (bounded). */
  ask<T extends Message>(msg: Message, reply: string, timeoutMs: number): Promise<T> {
    if (this.exited) return Promise.reject(new Error("load generator has exited"));
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        const i = this.waiting.findIndex((w) => w.resolve === done);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(new Error(`load generator did not answer "${msg.type}" within ${timeoutMs} ms`));
      }, timeoutMs);
      const done = (m: Message) => {
        clearTimeout(timer);
        resolve(m as T);
      };
      this.waiting.push({ type: reply, resolve: done, reject: (e) => (clearTimeout(timer), reject(e)) });
      this.proc.send(msg);
    });
  }

  async close(): Promise<void> {
    if (this.exited) return;
    const gone = new Promise<void>((r) => this.proc.once("exit", () => r()));
    this.proc.send({ type: "exit" });
    const t = setTimeout(() => this.proc.kill("SIGKILL"), 3000);
    await gone;
    clearTimeout(t);
  }
}

/** In the child: answers the parent's commands with `handler`; replies are `{ type: <cmd>:done, ... }`. */
export function serveParent(handler: (m: Message) => Promise<Record<string, unknown> | void>): void {
  const answer = async (m: Message) => {
    try {
      const out = (await handler(m)) ?? {};
      process.send?.({ ...out, type: `${m.type}:done` });
    } catch (e) {
      process.send?.({ type: "error", message: e instanceof Error ? (e.stack ?? e.message) : String(e) });
    }
  };
  process.on("message", (m: Message) => {
    if (m.type === "exit") {
      process.disconnect?.();
      setTimeout(() => process.exit(0), 10);
      return;
    }
    // answer() reports its own failures to the parent, so nothing is left to reject.
    void answer(m);
  });
  process.on("disconnect", () => setTimeout(() => process.exit(0), 10));
}

/** A hard stop for a whole benchmark run: it never outlives its budget. */
export function watchdog(ms: number, what: string): NodeJS.Timeout {
  const t = setTimeout(() => {
    console.error(`${what}: exceeded its ${Math.round(ms / 1000)} s budget; stopping`);
    process.exit(2);
  }, ms);
  t.unref();
  return t;
}

/**
 * One measured window of a phase run by the load-generating child: start it, let it warm up, then read the
 * child's counters at both ends of `seconds` while the server's CPU time is measured (this process's, or
 * `serverCpuUs` for a server in another process: its CPU time so far in microseconds); stop it.
 */
export async function measureWindow<C>(
  child: Child,
  start: Message,
  startTimeoutMs: number,
  seconds: number,
  warmup: number,
  label = String(start.type),
  serverCpuUs?: () => Promise<number>,
) {
  await child.ask(start, "start:done", startTimeoutMs);
  await sleep(warmup * 1000);
  const stopProfile = await profileWindow(label);
  const cpuSinceStart = await serverCpuFrom(serverCpuUs);
  const t0 = nowMs();
  const m0 = await child.ask<Message & C>({ type: "mark" }, "mark:done", 10_000);
  await sleep(seconds * 1000);
  const cpu = await cpuSinceStart();
  await stopProfile();
  const elapsed = (nowMs() - t0) / 1000;
  const m1 = await child.ask<Message & C>({ type: "mark", latencies: true }, "mark:done", 10_000);
  await child.ask({ type: "stop" }, "stop:done", 60_000);
  return { cpu, elapsed, m0, m1 };
}
