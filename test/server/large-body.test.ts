import { strict as assert } from "node:assert";
import { request as httpRequest } from "node:http";
import type { RunningServer } from "../../src/server";
import { bootServer } from "../support/server";

/** POSTs `body` with its Content-Length and reports the answer with any socket error seen before the connection closed. */
function postSized(base: string, path: string, body: Buffer): Promise<{ status: number; text: string; error?: string }> {
  return new Promise((resolve) => {
    const url = new URL(path, base);
    let status = 0;
    let text = "";
    let error: string | undefined;
    // Settled once the request is over on both sides, so an EPIPE or a reset after the answer counts too.
    let pending = 2;
    const done = () => --pending === 0 && resolve({ status, text, ...(error ? { error } : {}) });
    const req = httpRequest(
      {
        hostname: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        agent: false,
        headers: { "content-type": "application/json", "content-length": String(body.length) },
      },
      (res) => {
        status = res.statusCode ?? 0;
        res.on("data", (c: Buffer) => (text += c.toString()));
        res.on("end", done);
        res.on("error", (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
      },
    );
    req.on("error", (e: NodeJS.ErrnoException) => (error ??= e.code ?? e.message));
    req.on("close", () => {
      if (status === 0) pending--;
      done();
    });
    req.end(body);
  });
}

/** POSTs `body` chunked (no Content-Length) in 64 KiB pieces, as fast as the server takes them, and reports as postSized. */
function postChunked(base: string, path: string, body: Buffer): Promise<{ status: number; text: string; error?: string }> {
  return new Promise((resolve) => {
    const url = new URL(path, base);
    let status = 0;
    let text = "";
    let error: string | undefined;
    let pending = 2;
    const done = () => --pending === 0 && resolve({ status, text, ...(error ? { error } : {}) });
    const req = httpRequest(
      {
        hostname: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        agent: false,
        headers: { "content-type": "application/json", "transfer-encoding": "chunked" },
      },
      (res) => {
        status = res.statusCode ?? 0;
        res.on("data", (c: Buffer) => (text += c.toString()));
        res.on("end", done);
        res.on("error", (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
      },
    );
    req.on("error", (e: NodeJS.ErrnoException) => (error ??= e.code ?? e.message));
    req.on("close", () => {
      if (status === 0) pending--;
      done();
    });
    let sent = 0;
    const write = (): void => {
      while (sent < body.length && !req.destroyed) {
        const piece = body.subarray(sent, sent + 64 * 1024);
        sent += piece.length;
        if (!req.write(piece)) return void req.once("drain", write);
      }
      if (!req.destroyed) req.end();
    };
    write();
  });
}

describe("Integration: a 10 MB body is answered 413", function () {
  this.timeout(120_000);
  let server: RunningServer;
  before(async () => {
    server = await bootServer();
  });
  after(async () => server?.close());

  const body = Buffer.alloc(10 * 1024 * 1024, 0x20);
  for (const path of ["/api/v1/games", "/mcp", "/matchmake/joinOrCreate/game"]) {
    it(`answers 413 on ${path} in every one of 10 tries, before closing, with no EPIPE or reset`, async () => {
      const answers = [];
      for (let i = 0; i < 10; i++) answers.push(await postSized(server.url, path, body));
      assert.deepEqual(
        answers.map((a) => `${a.status}${a.error ? ` ${a.error}` : ""}`),
        Array(10).fill("413"),
      );
      for (const a of answers) assert.match(a.text, /payload_too_large|larger than/);
    });

    it(`answers 413 on ${path} to a chunked body in every one of 30 tries, read by the client, with no EPIPE or reset`, async () => {
      const answers = [];
      for (let i = 0; i < 30; i++) answers.push(await postChunked(server.url, path, body));
      assert.deepEqual(
        answers.map((a) => `${a.status}${a.error ? ` ${a.error}` : ""}`),
        Array(30).fill("413"),
      );
      for (const a of answers) assert.match(a.text, /payload_too_large|larger than/);
    });
  }
});
