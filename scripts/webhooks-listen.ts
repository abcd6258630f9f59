/**
 * A local webhook receiver for trying the events out: an HTTPS server on loopback with a self-signed
 * certificate that verifies every delivery's Standard Webhooks signature, answers the subscribe handshake,
 * and prints each verified event as one JSON line. It prints the exact server settings and the subscribe
 * call that make a local server deliver to it.
 *
 *   npm run webhooks:listen -- [--port 4443] [--dir data/webhooks]
 *
 * The certificate, key and secret are kept in --dir, so a restarted listener is still trusted by a
 * server started with the printed NODE_EXTRA_CA_CERTS. ARENA_WEBHOOK_SECRET overrides the stored secret.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { generate } from "selfsigned";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { generateSecret } from "../src/services/events";

const { values: args } = parseArgs({
  options: { port: { type: "string", default: "4443" }, dir: { type: "string", default: "data/webhooks" }, path: { type: "string", default: "/hooks/arena" } },
});

async function credentials(dir: string) {
  mkdirSync(dir, { recursive: true });
  const files = { key: resolve(dir, "key.pem"), cert: resolve(dir, "cert.pem"), secret: resolve(dir, "secret") };
  if (!existsSync(files.key) || !existsSync(files.cert)) {
    const pems = await generate([{ name: "commonName", value: "localhost" }], {
      keyType: "ec",
      algorithm: "sha256",
      notAfterDate: new Date(Date.now() + 365 * 24 * 3600 * 1000),
      extensions: [
        { name: "basicConstraints", cA: false },
        { name: "keyUsage", digitalSignature: true, keyEncipherment: true },
        { name: "extKeyUsage", serverAuth: true },
        {
          name: "subjectAltName",
          altNames: [
            { type: 2, value: "localhost" },
            { type: 7, ip: "127.0.0.1" },
            { type: 7, ip: "::1" },
          ],
        },
      ],
    });
    writeFileSync(files.key, pems.private, { mode: 0o600 });
    writeFileSync(files.cert, pems.cert);
  }
  if (!existsSync(files.secret)) writeFileSync(files.secret, generateSecret(), { mode: 0o600 });
  const secret = process.env.ARENA_WEBHOOK_SECRET ?? readFileSync(files.secret, "utf8").trim();
  return { key: readFileSync(files.key, "utf8"), cert: readFileSync(files.cert, "utf8"), certFile: files.cert, secret };
}

function body(req: IncomingMessage): Promise<string> {
  return new Promise((ok, fail) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => ok(Buffer.concat(chunks).toString("utf8")));
    req.on("error", fail);
  });
}

async function main() {
  const creds = await credentials(resolve(args.dir));
  const wh = new Webhook(creds.secret);
  const seen = new Set<string>();
  const server = createServer({ key: creds.key, cert: creds.cert }, (req, res) => {
    void body(req).then((raw) => {
      if (req.method !== "POST" || req.url !== args.path) {
        res.writeHead(404).end();
        return;
      }
      let event: { type?: string; challenge?: string; eventId?: string; name?: string };
      try {
        // Verifies the signature over the raw body and refuses a timestamp older than five minutes.
        event = wh.verify(raw, req.headers as Record<string, string>) as typeof event;
      } catch (err) {
        console.log(JSON.stringify({ refused: err instanceof WebhookVerificationError ? err.message : String(err), id: req.headers["webhook-id"] }));
        res.writeHead(401).end();
        return;
      }
      if (event.type === "verification") {
        console.log(JSON.stringify({ verification: "answered" }));
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ challenge: event.challenge }));
        return;
      }
      res.writeHead(204).end();
      // Retries repeat an eventId; a receiver does the work once.
      const duplicate = event.eventId !== undefined && seen.has(event.eventId);
      if (event.eventId) seen.add(event.eventId);
      console.log(JSON.stringify(duplicate ? { duplicate: event.eventId } : event));
    });
  });
  server.listen(Number(args.port), "127.0.0.1", () => {
    const { port } = server.address() as AddressInfo;
    const url = `https://localhost:${port}${args.path}`;
    const settings = {
      listening: url,
      secret: creds.secret,
      // The server must accept a loopback callback and trust this certificate.
      server: `WEBHOOK_ALLOW_PRIVATE=true NODE_EXTRA_CA_CERTS=${creds.certFile} npm start`,
      subscribe: `curl -s -X POST localhost:2567/api/v1/games/events/subscribe -H 'content-type: application/json' -d '{"name":"game.move","arguments":{"game_id":"'$GAME'"},"delivery":{"mode":"webhook","url":"${url}","secret":"${creds.secret}"}}'`,
    };
    console.error(`Webhook receiver on ${url} (self-signed certificate ${creds.certFile}).`);
    console.error(`Start the server with:\n  ${settings.server}`);
    console.error(`Subscribe (set GAME to a game id):\n  ${settings.subscribe}`);
    console.error("Verified events follow, one JSON line each.");
    console.log(JSON.stringify(settings));
  });
  const stop = () => server.close(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

void main();
