import { request as httpRequest } from "node:http";

/** What a POST of a large body came to: the status (0 when none was read), the answer's text, any socket error. */
export interface PostAnswer {
  status: number;
  text: string;
  error?: string;
}

/**
 * POSTs `body` with its Content-Length, or `chunked` (no Content-Length) in 64 KiB pieces as fast as the server
 * takes them, and reports the answer with any socket error seen before the connection closed: it settles once
 * the request is over on both sides, so an EPIPE or a reset after the answer counts too.
 */
export function postBody(base: string, path: string, body: Buffer, chunked = false): Promise<PostAnswer> {
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
        headers: { "content-type": "application/json", ...(chunked ? { "transfer-encoding": "chunked" } : { "content-length": String(body.length) }) },
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
    if (!chunked) return void req.end(body);
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

/** An answer as one word for comparing many: its status, and the socket error after it when there was one. */
export const statusOf = (a: PostAnswer): string => `${a.status}${a.error ? ` ${a.error}` : ""}`;
