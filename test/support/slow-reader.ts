/**
 * An HTTP GET from a chosen loopback address (127.0.0.2, 127.0.0.3, ...: the server sees each as another
 * client) whose reader takes the head and then stops reading, as a client that stalls or reads a byte now
 * and then: the server's writes pile up in the socket until it is full. Refusals are read whole.
 */
import http from "node:http";

export interface HeldAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body of a refusal (anything but 200), parsed; a 200's body is left unread. */
  problem?: { type: string; status: number; code?: string; detail?: string };
  /**
   * Resolves when the answer is over as this side sees it: ended by `close`. (A stalled reader stops reading
   * its socket, so it does not notice the server cutting it until it reads again.)
   */
  closed: Promise<void>;
  /** Ends the request from this side. */
  close(): void;
}

export function stalledGet(base: string, path: string, localAddress: string): Promise<HeldAnswer> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = http.get({ host: url.hostname, port: url.port, path: url.pathname + url.search, localAddress, agent: false }, (res) => {
      const closed = new Promise<void>((done) => res.once("close", () => done()));
      const held = { status: res.statusCode ?? 0, headers: res.headers, closed, close: () => req.destroy() };
      // Cut by the server, the unread answer ends in an error: that is what the tests wait for, as `closed`.
      res.on("error", () => undefined);
      if (res.statusCode === 200) return resolve(held);
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => resolve({ ...held, problem: JSON.parse(text) }));
    });
    req.on("error", (err) => reject(err));
  });
}
