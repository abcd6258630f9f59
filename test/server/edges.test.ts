import { strict as assert } from "node:assert";
import { join } from "node:path";
import Ajv from "ajv/dist/2020";
import addFormats from "ajv-formats";
import type { RunningServer } from "../../src/server";
import { spawnServer } from "../support/process";
import { bearer, bootServer, http } from "../support/server";
import { useTempDir } from "../support/temp-dir";

const PROBLEM_FIELDS = ["status", "error", "code", "hint", "type", "title", "detail", "docs"];

describe("Integration: the edges every response carries", function () {
  this.timeout(30_000);
  let server: RunningServer;
  before(async () => {
    // The spec's limits as they are (scale 1): 120 reads per minute per IP.
    server = await bootServer({ rateLimitScale: 1 });
  });
  after(async () => server.close());

  it("sends API-Version on every response outside /api too: health, metrics, web pages, 404s, matchmaking, 413s", async () => {
    const responses = {
      healthz: await http(server.url, "GET", "/healthz"),
      metrics: await http(server.url, "GET", "/metrics"),
      page: await http(server.url, "GET", "/"),
      notFound: await http(server.url, "GET", "/no/such/page"),
      matchmake: await http(server.url, "POST", "/matchmake/joinById/g_none", {}),
      tooLarge: await http(server.url, "POST", "/no/such/page", "[" + "1,".repeat(40_000) + "1]"),
    };
    for (const [what, r] of Object.entries(responses)) assert.equal(r.headers.get("api-version"), "1", `${what} (${r.status})`);
    // As docs/API.md says: the RateLimit fields come with /api, /mcp and matchmaking, not with health or metrics.
    assert.equal(responses.healthz.headers.get("ratelimit"), null);
    assert.match(responses.matchmake.headers.get("ratelimit-policy") ?? "", /"matchmake"/);
  });

  it("sends API-Version, open CORS and the RateLimit fields on success and on errors, under /api/v1 and /api", async () => {
    const created = await http(server.url, "POST", "/api/games", { opponent: "house" }, { origin: "https://client.example" });
    assert.equal(created.status, 201);
    const responses = [
      created,
      await http(server.url, "GET", `/api/v1/games/${created.json.game.id}`),
      await http(server.url, "GET", `/api/v1/games/nope`),
      await http(server.url, "GET", `/api/v1/no/such/route`),
      await http(server.url, "POST", "/api/v1/games", "{not json"),
    ];
    for (const r of responses) {
      assert.equal(r.headers.get("api-version"), "1");
      assert.equal(r.headers.get("access-control-allow-origin"), "*");
      assert.equal(r.headers.get("access-control-allow-credentials"), null, "no credentials: bearer tokens, no cookies");
      assert.match(r.headers.get("ratelimit") ?? "", /^"(reads|writes)"; r=\d+; t=\d+$/);
      assert.match(r.headers.get("ratelimit-policy") ?? "", /^"(reads|writes)"; q=120; w=60/);
      assert.match(r.headers.get("access-control-expose-headers") ?? "", /RateLimit-Policy/);
    }
    const [, , unknownGame, unknownRoute, malformed] = responses;
    assert.equal(unknownGame.status, 404);
    assert.equal(unknownRoute.json.code, "not_found");
    assert.equal(malformed.status, 400);
    assert.equal(malformed.json.code, "bad_request");
    for (const r of [unknownGame, unknownRoute, malformed]) {
      assert.equal(r.headers.get("content-type"), "application/problem+json; charset=utf-8");
      for (const f of PROBLEM_FIELDS) assert.ok(f in r.json, f);
      assert.equal(r.json.status, r.status);
    }
  });

  it("answers a CORS preflight for the API: any origin, without credentials", async () => {
    const r = await fetch(`${server.url}/api/v1/games`, {
      method: "OPTIONS",
      headers: { origin: "https://client.example", "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" },
    });
    assert.ok(r.status === 204 || r.status === 200);
    // A browser refuses `*` with credentials; the API has none to allow (tokens travel in Authorization).
    assert.equal(r.headers.get("access-control-allow-origin"), "*");
    assert.equal(r.headers.get("access-control-allow-credentials"), null);
    assert.match(r.headers.get("access-control-allow-headers") ?? "", /Authorization/);
  });

  it("marks the superseded /game/{id} path with Deprecation, Sunset and a Link to migration notes", async () => {
    const r = await fetch(`${server.url}/api/v1/game/g_x`, { redirect: "manual" });
    assert.equal(r.status, 308);
    assert.match(r.headers.get("deprecation") ?? "", /^@\d+$/);
    assert.ok(Date.parse(r.headers.get("sunset") ?? "") > Date.now());
    assert.match(r.headers.get("link") ?? "", /rel="deprecation"/);
    assert.equal(r.headers.get("location"), "/api/v1/games/g_x");
  });

  it("serves an OpenAPI 3.1 document whose schemas accept real responses", async () => {
    const doc = (await http(server.url, "GET", "/api/v1/openapi.json")).json;
    assert.equal(doc.openapi, "3.1.0");
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ $id: "doc", components: doc.components });
    const check = (schema: object, body: unknown, what: string) => {
      const validate = ajv.compile(schema);
      assert.ok(validate(body), `${what}: ${ajv.errorsText(validate.errors)}`);
    };
    const refs = (s: any): any => JSON.parse(JSON.stringify(s).replaceAll('"#/components', '"doc#/components'));
    const schemaOf = (path: string, method: string, status: string) => {
      const content = doc.paths[path][method].responses[status].content;
      return refs((content["application/json"] ?? content["application/problem+json"]).schema);
    };
    const created = await http(server.url, "POST", "/api/v1/games", { opponent: "house", level: "easy" });
    const id = created.json.game.id;
    const token = created.json.playerToken;
    check(schemaOf("/games/{id}/sync", "get", "200"), (await http(server.url, "GET", `/api/v1/games/${id}/sync`, undefined, bearer(token))).json, "sync");
    check(schemaOf("/games/{id}/replay", "get", "409"), (await http(server.url, "GET", `/api/v1/games/${id}/replay`)).json, "replay 409");
    check(schemaOf("/players/{id}", "get", "200"), (await http(server.url, "GET", `/api/v1/players/${created.json.player.id}`)).json, "profile");
    check(schemaOf("/games/{id}", "get", "200"), (await http(server.url, "GET", `/api/v1/games/${id}`)).json, "game");
    // the request schemas refuse what the server refuses
    const createSchema = refs(doc.paths["/games"].post.requestBody.content["application/json"].schema);
    assert.equal(ajv.compile(createSchema)({ opponent: "robot" }), false);
    assert.equal(ajv.compile(createSchema)({ opponent: "house" }), true);
  });

  it("refuses a body that is not sent as JSON with a bad_request naming the Content-Type", async () => {
    for (const type of ["text/plain", "application/x-www-form-urlencoded"]) {
      const r = await fetch(`${server.url}/api/v1/games`, { method: "POST", headers: { "content-type": type }, body: '{"opponent":"house"}' });
      assert.equal(r.status, 400, type);
      assert.match(r.headers.get("content-type") ?? "", /application\/problem\+json/);
      const problem = await r.json();
      assert.equal(problem.code, "bad_request");
      assert.match(problem.detail, /Content-Type: application\/json/);
    }
    const json = await http(server.url, "POST", "/api/v1/games", { opponent: "house" });
    assert.equal(json.status, 201);
  });

  it("limits Colyseus' matchmaking requests per address too, with the RateLimit fields and a readable 429", async () => {
    const call = () =>
      fetch(`${server.url}/matchmake/joinById/g_none`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: "https://client.example" },
        body: "{}",
      });
    const first = await call();
    assert.equal(first.status, 404); // no such room: Colyseus' refusal as a problem document, counted all the same
    assert.match(first.headers.get("ratelimit-policy") ?? "", /"matchmake"; q=120; w=60/);
    for (let i = 1; i < 120; i++) await (await call()).arrayBuffer();
    const refused = await call();
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get("retry-after")) > 0);
    assert.equal(refused.headers.get("access-control-allow-origin"), "*");
    assert.equal(refused.headers.get("access-control-allow-credentials"), null);
    assert.match(refused.headers.get("content-type") ?? "", /application\/problem\+json/);
    assert.equal((await refused.json()).code, "rate_limited");
    // REST has budgets of its own.
    assert.equal((await http(server.url, "POST", "/api/v1/games", { opponent: "house" })).status, 201);
  });

  it("answers 429 with Retry-After and a problem document once the read limit is spent", async () => {
    let last: Awaited<ReturnType<typeof http>> | undefined;
    for (let i = 0; i < 130; i++) {
      last = await http(server.url, "GET", "/api/v1/games?limit=1");
      if (last.status === 429) break;
    }
    assert.equal(last!.status, 429);
    assert.equal(last!.json.code, "rate_limited");
    assert.ok(Number(last!.headers.get("retry-after")) > 0);
    assert.match(last!.headers.get("ratelimit") ?? "", /r=0/);
  });
});

describe("End-to-end: /metrics behind METRICS_TOKEN", function () {
  this.timeout(60_000);

  it("answers the scraper that sends the token and refuses others with an unauthorized problem document", async () => {
    const token = "metrics-token-0123456789";
    const server = await spawnServer({ DATABASE: ":memory:", METRICS_TOKEN: token });
    try {
      for (const auth of [undefined, "Bearer wrong-token-0123456789", `Basic ${token}`, "Bearer"]) {
        const r = await fetch(`${server.url}/metrics`, { headers: auth ? { authorization: auth } : {} });
        assert.equal(r.status, 401, String(auth));
        assert.match(r.headers.get("content-type") ?? "", /application\/problem\+json/);
        assert.equal((await r.json()).code, "unauthorized");
      }
      const ok = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(ok.status, 200);
      assert.match(await ok.text(), /arena_moves_total/);
    } finally {
      await server.stop();
    }
  });
});

describe("Integration: the WAL fsync metric", function () {
  this.timeout(30_000);
  const dir = useTempDir("fsync-metric-", "each");

  const fsyncCount = async (url: string) => {
    const text = await (await fetch(`${url}/metrics`)).text();
    return Number(/^arena_sqlite_wal_fsync_seconds_count (\d+)$/m.exec(text)?.[1] ?? "NaN");
  };

  it("counts every fsync of a file database under FULL, as the start option is told them, and none under NORMAL", async () => {
    const told: number[] = [];
    const full = await bootServer({ database: join(dir(), "full.sqlite"), sqliteSynchronous: "FULL" }, { onFsync: (s) => told.push(s) });
    try {
      const before = await fsyncCount(full.url);
      const created = await http(full.url, "POST", "/api/v1/games", { opponent: "house" });
      assert.equal(created.status, 201);
      const after = await fsyncCount(full.url);
      assert.ok(after > before, `${after} fsyncs after a created game, ${before} before`);
      assert.equal(told.length, after);
      assert.ok(told.every((s) => s >= 0 && s < 60));
    } finally {
      await full.close();
    }
    const normal = await bootServer({ database: join(dir(), "normal.sqlite"), sqliteSynchronous: "NORMAL" });
    try {
      assert.equal((await http(normal.url, "POST", "/api/v1/games", { opponent: "house" })).status, 201);
      assert.equal(await fsyncCount(normal.url), 0);
    } finally {
      await normal.close();
    }
  });
});
