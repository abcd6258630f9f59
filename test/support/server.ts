/**
 * Boots a real server (Colyseus + Express + SQLite) on a free loopback port for a test file. Colyseus'
 * matchmaker is process-wide, so at most one server runs per test process: boot in `before`, close in
 * `after`.
 */
import { createServer, type AddressInfo } from "node:net";
import { testConfig, type Config } from "../../src/shared/config";
import { startServer, type RunningServer, type StartOptions } from "../../src/server";

export async function bootServer(overrides: Partial<Config> = {}, opts: StartOptions = {}): Promise<RunningServer> {
  const port = overrides.port ?? (await freePort());
  const config = testConfig({
    host: "127.0.0.1",
    port,
    publicBaseUrl: `http://127.0.0.1:${port}`,
    rateLimitScale: 1000,
    houseDelayMs: 0,
    ...overrides,
  });
  return startServer(config, { finishedGraceMs: 200, ...opts });
}

/** A port that was free a moment ago (links in responses need the port before the server listens). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/** JSON over real HTTP with the spec's headers kept for assertions. */
export async function http(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(body !== undefined ? { "content-type": "application/json" } : {}), ...headers },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json, text };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Polls `check` until it holds (state patches and messages arrive asynchronously); fails after `timeoutMs`. */
export async function eventually(check: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
