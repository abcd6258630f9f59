import { strict as assert } from "node:assert";
import { once } from "node:events";
import { createServer, Socket, type AddressInfo } from "node:net";
import { corkForThisTurn } from "../../src/edges/transport";

describe("corkForThisTurn", () => {
  let server: ReturnType<typeof createServer>;
  let client: Socket;
  let peer: Socket;
  beforeEach(async () => {
    server = createServer();
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    client = new Socket();
    const accepted = once(server, "connection");
    client.connect((server.address() as AddressInfo).port, "127.0.0.1");
    [peer] = (await accepted) as [Socket];
  });
  afterEach(() => {
    client.destroy();
    peer.destroy();
    server.close();
  });

  it("holds a client's writes until the turn's promise continuations have run, then sends them together", async () => {
    const fake = { ref: { _socket: peer } };
    const received: Buffer[] = [];
    client.on("data", (d: Buffer) => received.push(d));
    await Promise.resolve().then(async () => {
      corkForThisTurn([fake, fake]);
      assert.equal(peer.writableCorked, 1, "corked once, however often it is named");
      peer.write("patch;");
      await Promise.resolve();
      // A later continuation of the same turn (the acknowledgement) still finds it corked.
      assert.equal(peer.writableCorked, 1);
      peer.write("moved;");
    });
    await new Promise((r) => setImmediate(r));
    assert.equal(peer.writableCorked, 0);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(Buffer.concat(received).toString(), "patch;moved;");
    assert.equal(received.length, 1, "both writes arrived as one");
  });

  it("skips clients without a socket and sockets already destroyed", async () => {
    peer.destroy();
    corkForThisTurn([{}, { ref: {} }, { ref: { _socket: peer } }]);
    assert.equal(peer.writableCorked, 0);
  });
});
