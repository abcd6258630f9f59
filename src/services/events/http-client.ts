/**
 * The one way the service talks to callbacks: a single HTTPS POST with the SSRF guard applied to every
 * connection, no redirects (Node's https never follows them; a 3xx is just a status to the caller), a hard
 * deadline over connect + response (the body included), and a response body cut off with its connection at a
 * small cap.
 *
 * Connections are kept alive and reused per origin: the TLS handshake is most of a delivery's cost. The
 * guard runs in `lookup`, which every new connection calls, so a reused connection is one that passed it.
 */
import https from "node:https";
import tls from "node:tls";
import { FORBIDDEN_ADDRESS_CODE, guardedLookup, isForbiddenAddress, isIpLiteral, stripBrackets } from "./ssrf";

export type TransportFailure = "not_https" | "forbidden_address" | "timeout" | "unreachable";

export type PostResult = { ok: true; status: number; body: string } | { ok: false; reason: TransportFailure; detail: string };

export interface CallbackClientOptions {
  /** Let callbacks reach loopback and private addresses (tests and local development only). Default false. */
  allowPrivate?: boolean;
  /** Extra trusted certificate(s), added to Node's default CAs. */
  ca?: string | Buffer | Array<string | Buffer>;
  /** Deadline of one POST, connect to last byte. Default 5000 ms. */
  timeoutMs?: number;
  /** Response bytes read; the connection is closed once an answer reaches them. Default 16 KiB. */
  maxResponseBytes?: number;
}

export interface CallbackClient {
  post(url: string, body: string, headers: Record<string, string>, signal?: AbortSignal): Promise<PostResult>;
}

const fail = (reason: TransportFailure, detail: string): PostResult => ({ ok: false, reason, detail });

/** Passing `ca` replaces Node's defaults, so the defaults are added back explicitly. */
function trustStore(ca: CallbackClientOptions["ca"]): Array<string | Buffer> | undefined {
  if (ca === undefined) return undefined;
  return [...tls.rootCertificates, ...(Array.isArray(ca) ? ca : [ca])];
}

/** Builds the callback client. */
export function createCallbackClient(opts: CallbackClientOptions = {}): CallbackClient {
  const allowPrivate = opts.allowPrivate ?? false;
  const timeoutMs = opts.timeoutMs ?? 5000;
  const maxBytes = opts.maxResponseBytes ?? 16 * 1024;
  const ca = trustStore(opts.ca);
  // Built once: a `ca` option per request would parse every root certificate again on each POST.
  const secureContext = ca ? tls.createSecureContext({ ca }) : undefined;
  const lookup = guardedLookup(allowPrivate);
  // Idle sockets are closed after 4 s (the agent's socket timeout), so the pool never pins a stale address long.
  const agent = new https.Agent({ keepAlive: true, keepAliveMsecs: 1000, maxSockets: 32, maxFreeSockets: 32, scheduling: "lifo", timeout: 4000 });

  return {
    post(url, body, headers, signal) {
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        return Promise.resolve(fail("unreachable", "not a valid URL"));
      }
      if (target.protocol !== "https:") return Promise.resolve(fail("not_https", "callbacks must use https"));
      const host = stripBrackets(target.hostname);
      // Node skips `lookup` for IP literals, so those are checked here.
      if (!allowPrivate && isIpLiteral(host) && isForbiddenAddress(host)) {
        return Promise.resolve(fail("forbidden_address", `${host} is not a public address`));
      }
      if (signal?.aborted) return Promise.resolve(fail("unreachable", "cancelled"));

      return new Promise<PostResult>((resolve) => {
        let settled = false;
        const finish = (r: PostResult, cutOff = false) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          // A complete answer leaves the socket to the pool; anything else closes it.
          if (!r.ok || cutOff) req.destroy();
          resolve(r);
        };
        const options: https.RequestOptions & Pick<tls.ConnectionOptions, "secureContext"> = {
          protocol: "https:",
          hostname: host,
          port: target.port || 443,
          path: `${target.pathname}${target.search}`,
          method: "POST",
          agent,
          lookup,
          secureContext,
          headers: {
            ...headers,
            "content-type": "application/json",
            "content-length": String(Buffer.byteLength(body)),
            "user-agent": "tile-arena-webhooks/1",
          },
        };
        const req = https.request(options);
        const timer = setTimeout(() => finish(fail("timeout", `no answer within ${timeoutMs} ms`)), timeoutMs);
        const onAbort = () => finish(fail("unreachable", "cancelled"));
        signal?.addEventListener("abort", onAbort, { once: true });

        req.on("error", (err: NodeJS.ErrnoException) => {
          if (err.code === FORBIDDEN_ADDRESS_CODE) finish(fail("forbidden_address", err.message));
          else finish(fail("unreachable", err.code ?? err.message));
        });
        req.on("response", (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          const answered = () => ({ ok: true as const, status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") });
          res.on("data", (chunk: Buffer) => {
            chunks.push(chunk.subarray(0, maxBytes - size));
            size += chunk.length;
            // Past the cap the answer is cut off and its connection closed: reading on would let a receiver
            // push bytes into this process until the deadline.
            if (size >= maxBytes) finish(answered(), true);
          });
          res.on("end", () => finish(answered()));
          res.on("error", (err) => finish(fail("unreachable", err.message)));
        });
        req.end(body);
      });
    },
  };
}
