import { strict as assert } from "node:assert";
import type { IncomingMessage } from "node:http";
import { Client } from "@colyseus/sdk";
import type { WebSocket } from "ws";
import { testConfig } from "../../src/shared/config";
import type { RunningServer } from "../../src/server";
import { clientAddress } from "../../src/edges/transport";
import { openJoined, reserveSeat, socketUrl } from "../support/raw-ws";
import { bootServer, eventually, http } from "../support/server";

const limits = (over: Partial<ReturnType<typeof testConfig>["limits"]>) => ({ ...testConfig().limits, ...over });

/** Takes a spectator seat over HTTP and joins it with a raw socket; resolves with the socket or the refusal. */
async function spectate(base: string, gameId: string, headers: Record<string, string> = {}): Promise<WebSocket | Error> {
  return openJoined(socketUrl(base, await reserveSeat(base, gameId)), headers).catch((e: Error) => e);
}

/** A spectate outcome for an assertion message. */
const outcome = (r: WebSocket | Error): string => (r instanceof Error ? String(r) : "an open socket");

describe("Admission: spectators have their own cap and never keep a seat out", function () {
  this.timeout(60_000);
  let server: RunningServer;
  const sockets: WebSocket[] = [];
  before(async () => {
    server = await bootServer({ limits: limits({ spectatorsPerGame: 100, spectatorsPerAddress: 1000 }) });
  });
  after(async () => {
    for (const ws of sockets) ws.close();
    await server.close();
  });

  it("lets a seat's token in after 300 spectators tried to fill the game", async () => {
    const a = await http(server.url, "POST", "/api/v1/games", { opponent: "friend" });
    const b = await http(server.url, "POST", "/api/v1/games/join", { code: a.json.code });
    const id = a.json.game.id;
    const results: Array<WebSocket | Error> = [];
    for (let i = 0; i < 300; i++) results.push(await spectate(server.url, id));
    const admitted = results.filter((r): r is WebSocket => !(r instanceof Error));
    sockets.push(...admitted);
    const refused = results.filter((r): r is Error => r instanceof Error);
    assert.equal(admitted.length, 100);
    assert.equal(refused.length, 200);
    assert.match(refused[0].message, /admits 100 spectators/);

    // Both seats still get in, by token, and the game is theirs to play.
    for (const token of [a.json.playerToken, b.json.playerToken]) {
      const seat = await new Client(server.url).joinById(id, { playerToken: token });
      await eventually(() => Boolean((seat.state as { status?: string }).status), "the seat's state");
      assert.equal((seat.state as { status: string }).status, "active");
      await seat.leave();
    }
  });
});

describe("Admission: spectators per address", function () {
  this.timeout(30_000);
  let server: RunningServer;
  const sockets: WebSocket[] = [];
  before(async () => {
    server = await bootServer({ limits: limits({ spectatorsPerGame: 100, spectatorsPerAddress: 3 }) });
  });
  after(async () => {
    for (const ws of sockets) ws.close();
    await server.close();
  });

  it("admits a few spectators from one address, and a forged X-Forwarded-For does not make it another", async () => {
    const id = (await http(server.url, "POST", "/api/v1/games", { opponent: "friend" })).json.game.id;
    for (let i = 0; i < 3; i++) {
      const ws = await spectate(server.url, id);
      assert.ok(!(ws instanceof Error), outcome(ws));
      sockets.push(ws);
    }
    const fourth = await spectate(server.url, id);
    assert.ok(fourth instanceof Error && /3 spectators from one address/.test(fourth.message), outcome(fourth));
    const forged = await spectate(server.url, id, { "x-forwarded-for": "203.0.113.9", "x-real-ip": "203.0.113.9" });
    assert.ok(forged instanceof Error && /from one address/.test(forged.message), outcome(forged));
    // One leaving makes room for the next.
    sockets.shift()!.close();
    let next: WebSocket | Error = new Error("not tried");
    for (let i = 0; i < 50 && next instanceof Error; i++) {
      await new Promise((r) => setTimeout(r, 50));
      next = await spectate(server.url, id);
    }
    assert.ok(!(next instanceof Error), outcome(next));
    sockets.push(next);
  });

  it("reads the address through exactly TRUST_PROXY proxies", () => {
    const req = (remote: string, xff?: string) =>
      ({ socket: { remoteAddress: remote }, headers: xff ? { "x-forwarded-for": xff } : {} }) as unknown as IncomingMessage;
    assert.equal(clientAddress(req("10.0.0.1", "203.0.113.9"), 0), "10.0.0.1");
    assert.equal(clientAddress(req("10.0.0.1", "198.51.100.1, 203.0.113.9"), 1), "203.0.113.9");
    assert.equal(clientAddress(req("10.0.0.1", "198.51.100.1, 203.0.113.9"), 2), "198.51.100.1");
    assert.equal(clientAddress(req("10.0.0.1", "203.0.113.9"), 5), "203.0.113.9");
    assert.equal(clientAddress(req("10.0.0.1"), 1), "10.0.0.1");
  });
});
