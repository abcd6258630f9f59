import { strict as assert } from "node:assert";
import { Writable } from "node:stream";
import pino from "pino";
import type { WebSocket } from "ws";
import type { RunningServer } from "../../src/server";
import { RateLimitedLog } from "../../src/edges/transport";
import { openJoined, reserveSeat, socketUrl } from "../support/raw-ws";
import { bootServer, eventually, http } from "../support/server";

/** A pino logger whose JSON lines are kept in `lines`. */
function capturingLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split("\n")) if (l) lines.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  return { log: pino({ level: "warn" }, sink), lines };
}

/** Waits for the socket to close; resolves with its close code. */
const closed = (ws: WebSocket) => new Promise<number>((r) => ws.once("close", (code) => r(code)));

describe("Malformed WebSocket frames are logged once per connection, structured", function () {
  this.timeout(30_000);
  let server: RunningServer;
  let id: string;
  const captured = capturingLogger();
  const stderr: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  before(async () => {
    server = await bootServer({}, { log: captured.log });
    id = (await http(server.url, "POST", "/api/v1/games", { opponent: "friend" })).json.game.id;
    process.stderr.write = (chunk: string | Uint8Array, ...rest: never[]) => {
      stderr.push(String(chunk));
      return write(chunk, ...rest);
    };
  });
  after(async () => {
    process.stderr.write = write;
    await server.close();
  });

  it("logs an undecodable room message once, through the logger, and prints no stack trace", async () => {
    const before = captured.lines.length;
    const ws = await openJoined(socketUrl(server.url, await reserveSeat(server.url, id)));
    ws.send(Buffer.from([0x0a]));
    const done = closed(ws);
    // ROOM_DATA "move" with a payload msgpack cannot decode (0xc1 is never used), many times.
    const bad = Buffer.from([0x0d, 0xa4, ...Buffer.from("move"), 0xc1, 0xc1]);
    for (let i = 0; i < 10; i++) ws.send(bad);
    await done;
    await eventually(() => captured.lines.length > before, "a log entry");
    const entries = captured.lines.slice(before);
    assert.equal(entries.length, 1, JSON.stringify(entries));
    assert.equal(entries[0].source, "colyseus");
    // Only what this test provoked: other tests of the process may write to stderr meanwhile.
    assert.ok(!stderr.some((s) => /MessagePack|RoomMessages/.test(s)), `the decode error went to stderr: ${stderr.join("")}`);
  });

  it("logs a frame the WebSocket protocol refuses once for its connection", async () => {
    const before = captured.lines.length;
    const ws = await openJoined(socketUrl(server.url, await reserveSeat(server.url, id)));
    ws.send(Buffer.from([0x0a]));
    const done = closed(ws);
    // A reserved opcode (3), masked, twice over: the server refuses the first and closes.
    const socket = (ws as unknown as { _socket: { write(b: Buffer): void } })._socket;
    socket.write(Buffer.from([0x83, 0x80, 1, 2, 3, 4, 0x83, 0x80, 1, 2, 3, 4]));
    assert.equal(await done, 1002);
    await eventually(() => captured.lines.length > before, "a log entry");
    await new Promise((r) => setTimeout(r, 100));
    const entries = captured.lines.slice(before);
    assert.equal(entries.length, 1, JSON.stringify(entries));
    assert.match(String(entries[0].reason), /invalid opcode/i);
  });
});

describe("Unit: RateLimitedLog", () => {
  it("writes at most perMinute entries a minute and reports how many it left out", () => {
    const { log, lines } = capturingLogger();
    let now = 0;
    const limited = new RateLimitedLog(log, 3, () => now);
    for (let i = 0; i < 10; i++) limited.warn({ i }, "x");
    now = 60_000;
    limited.warn({ i: 10 }, "x");
    assert.deepEqual(
      lines.map((l) => l.i),
      [0, 1, 2, 10],
    );
    assert.equal(lines[3].suppressed, 7);
  });
});
