import { strict as assert } from "node:assert";
import type { RunningServer } from "../../src/server";
import { postBody, statusOf } from "../support/post-body";
import { bootServer } from "../support/server";

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
      for (let i = 0; i < 10; i++) answers.push(await postBody(server.url, path, body));
      assert.deepEqual(answers.map(statusOf), Array(10).fill("413"));
      for (const a of answers) assert.match(a.text, /payload_too_large|larger than/);
    });

    it(`answers 413 on ${path} to a chunked body in every one of 30 tries, read by the client, with no EPIPE or reset`, async () => {
      const answers = [];
      for (let i = 0; i < 30; i++) answers.push(await postBody(server.url, path, body, true));
      assert.deepEqual(answers.map(statusOf), Array(30).fill("413"));
      for (const a of answers) assert.match(a.text, /payload_too_large|larger than/);
    });
  }
});
