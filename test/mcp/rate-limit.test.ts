import { strict as assert } from "node:assert";
import type { RunningServer } from "../../src/server";
import { bootServer, http } from "../support/server";

describe("Integration: MCP rate limit", function () {
  this.timeout(30_000);
  let server: RunningServer;
  before(async () => {
    // Scale 0.05 turns the 120-per-minute mcp policy into 6, so the limit is reached in a few requests.
    server = await bootServer({ rateLimitScale: 0.05 });
  });
  after(async () => server?.close());

  it("answers 429 with Retry-After when an address sends more than the mcp policy allows", async () => {
    const send = () => http(server.url, "POST", "/mcp", { jsonrpc: "2.0", id: 1, method: "ping" }, { accept: "application/json, text/event-stream" });
    const answers = [];
    for (let i = 0; i < 7; i++) answers.push(await send());
    assert.deepEqual(
      answers.slice(0, 6).map((a) => a.status),
      [400, 400, 400, 400, 400, 400],
    );
    const limited = answers[6];
    assert.equal(limited.status, 429);
    assert.ok(Number(limited.headers.get("retry-after")) > 0);
    assert.match(limited.headers.get("ratelimit-policy") ?? "", /^"mcp"; q=6; w=60/);
    assert.equal(limited.json.code, "rate_limited");
  });
});
