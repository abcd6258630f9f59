/**
 * Test fixtures for the events context: a self-signed certificate made with the openssl CLI, a real HTTPS
 * receiver on 127.0.0.1 whose answers each test scripts, a recording logger and a wired `createEvents`.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore, type Store } from "../../src/store/index";
import { createEvents, type EventsDeps, type Events, type EventsLogger } from "../../src/services/events/index";

export interface TestCert {
  key: string;
  cert: string;
}

let certCache: TestCert | undefined;

/** A throwaway certificate for 127.0.0.1, ::1 and localhost (made once per test run). */
export function testCert(): TestCert {
  if (certCache) return certCache;
  const dir = mkdtempSync(join(tmpdir(), "events-cert-"));
  try {
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-keyout",
        join(dir, "key.pem"),
        "-out",
        join(dir, "cert.pem"),
        "-days",
        "2",
        "-subj",
        "/CN=localhost",
        "-addext",
        "subjectAltName=IP:127.0.0.1,IP:0:0:0:0:0:0:0:1,DNS:localhost",
      ],
      { stdio: "ignore" },
    );
    certCache = { key: readFileSync(join(dir, "key.pem"), "utf8"), cert: readFileSync(join(dir, "cert.pem"), "utf8") };
    return certCache;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface Received {
  path: string;
  headers: Record<string, string>;
  raw: string;
  json: any;
}

export interface Answer {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
}

/** Scripted answer; the default echoes verification challenges and accepts events with 204. */
export type Responder = (r: Received, index: number) => Answer;

export const echo: Responder = (r) => (r.json?.type === "verification" ? { status: 200, body: { challenge: r.json.challenge } } : { status: 204 });

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Answers sent so far (a delayed answer counts once it is sent). */
  answered: number;
  respond: Responder;
  /** Requests other than verifications. */
  events(): Received[];
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(respond: Responder = echo): Promise<Receiver> {
  const { key, cert } = testCert();
  const received: Received[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const self = { respond, answered: 0 } as Receiver;
  const server = https.createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch {
        json = undefined;
      }
      const r: Received = { path: req.url ?? "", headers: req.headers as Record<string, string>, raw, json };
      received.push(r);
      const a = self.respond(r, received.length - 1);
      const send = () => {
        self.answered++;
        res.writeHead(a.status ?? 200, { "content-type": "application/json", ...a.headers });
        res.end(a.body === undefined ? "" : typeof a.body === "string" ? a.body : JSON.stringify(a.body));
      };
      if (a.delayMs) {
        const t = setTimeout(send, a.delayMs);
        timers.add(t);
      } else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(self, {
    url: `https://127.0.0.1:${port}/hook`,
    port,
    received,
    events: () => received.filter((r) => r.json?.type !== "verification"),
    async waitFor(count: number, timeoutMs = 5000) {
      const until = Date.now() + timeoutMs;
      while (self.events().length < count) {
        if (Date.now() > until) throw new Error(`expected ${count} deliveries, got ${self.events().length}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/** A logger that keeps every line, to assert on warnings and on what is never logged. */
export function recordingLogger(): EventsLogger & { lines: Array<{ level: string; obj: object; msg?: string }> } {
  const lines: Array<{ level: string; obj: object; msg?: string }> = [];
  const at = (level: string) => (obj: object, msg?: string) => void lines.push({ level, obj, msg });
  return { lines, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

export interface Harness {
  store: Store;
  events: Events;
  logger: ReturnType<typeof recordingLogger>;
  clock: { now: Date };
  close(): Promise<void>;
}

/** createEvents over an in-memory SQLite store, trusting the test certificate, with fast retries. */
export async function harness(overrides: Partial<Omit<EventsDeps, "store">> & { store?: Store } = {}): Promise<Harness> {
  const store: Store = overrides.store ?? (await openStore({ database: ":memory:" }));
  const logger = recordingLogger();
  const clock = { now: new Date() };
  const { store: _given, ...deps } = overrides;
  const events = createEvents({
    store: store.subscriptions,
    logger,
    config: { webhookAllowPrivate: true },
    ca: testCert().cert,
    timeoutMs: 2000,
    retryDelaysMs: [10, 20],
    now: () => clock.now,
    resolveSeat: async () => "A",
    currentState: async () => ({ cursor: null, events: [] }),
    ...deps,
  });
  return {
    store,
    events,
    logger,
    clock,
    async close() {
      await events.close(1000);
      await store.close();
    },
  };
}

/** A subscribe body for `url`. */
export const subBody = (url: string, secret: string, name = "game.finished", args: Record<string, unknown> = { game_id: "g1" }) => ({
  name,
  arguments: args,
  delivery: { mode: "webhook", url, secret },
});

/** A free local port with nothing listening on it. */
export async function closedPort(): Promise<number> {
  const server = https.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
