/**
 * Every link a response carries resolves on the service: problem `type` and `docs` links, the deprecated
 * route's migration Link, and the API reference page with the renderer it loads.
 */
import { strict as assert } from "node:assert";
import { ERROR_CODES } from "../../src/shared/errors";
import type { RunningServer } from "../../src/server";
import { playToEnd } from "../agents/play";
import { bearer, bootServer, http } from "../support/server";

describe("Integration: documentation served by the process", function () {
  this.timeout(30_000);
  let server: RunningServer;
  before(async () => {
    server = await bootServer();
  });
  after(async () => server.close());

  /** GETs an absolute link and returns the page, asserting a 200 HTML answer. */
  async function page(link: string): Promise<string> {
    assert.ok(link.startsWith(server.url), `${link} is not on the service (${server.url})`);
    const r = await fetch(link);
    assert.equal(r.status, 200, link);
    assert.match(r.headers.get("content-type") ?? "", /^text\/html/, link);
    return r.text();
  }

  it("resolves the type and docs links of real problem documents to the section of their code", async () => {
    const game = await http(server.url, "POST", "/api/v1/games", { opponent: "house" });
    const problems = [
      await http(server.url, "GET", "/api/v1/games/g_missing"),
      await http(server.url, "POST", "/api/v1/games", { opponent: "robot" }),
      await http(server.url, "GET", `/api/v1/games/${game.json.game.id}/replay`),
      await http(server.url, "POST", `/api/v1/games/${game.json.game.id}/moves`, { move: "E7@b3" }),
    ];
    assert.deepEqual(
      problems.map((p) => p.json.code),
      ["not_found", "bad_request", "game_not_finished", "unauthorized"],
    );
    for (const p of problems) {
      const { code, type, docs } = p.json as { code: string; type: string; docs: string };
      assert.equal(type, `${server.url}/problems/${code}`);
      assert.equal(docs, `${server.url}/docs/errors#${code}`);
      assert.match(await page(type), new RegExp(`<section id="${code}">[\\s\\S]*What causes it[\\s\\S]*What to do`));
      assert.match(await page(docs), new RegExp(`<section id="${code}">`));
    }
  });

  it("has a section, with cause and action, for every problem code, and a 404 problem for an unknown one", async () => {
    const errors = await page(`${server.url}/docs/errors`);
    for (const code of Object.keys(ERROR_CODES)) {
      const section = errors.match(new RegExp(`<section id="${code}">([\\s\\S]*?)</section>`));
      assert.ok(section, code);
      assert.match(section[1], /What causes it\.<\/strong> \S[\s\S]{20,}What to do\.<\/strong> \S{2,}/, code);
      await page(`${server.url}/problems/${code}`);
    }
    const unknown = await http(server.url, "GET", "/problems/no_such_code");
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json.code, "not_found");
  });

  it("serves the migration notes the deprecated route's Link header names", async () => {
    const r = await fetch(`${server.url}/api/v1/game/g_x`, { redirect: "manual" });
    const link = /^<([^>]+)>; rel="deprecation"/.exec(r.headers.get("link") ?? "");
    assert.ok(link, r.headers.get("link") ?? "no Link");
    const [url, anchor] = link[1].split("#");
    assert.equal(anchor, "game-path");
    assert.match(await page(url), /<section id="game-path">[\s\S]*\/api\/v1\/games\/\{id\}/);
  });

  it("answers 200 on every link in the answers about a finished game, its player and an agent challenge", async () => {
    const created = await http(server.url, "POST", "/api/v1/games", { opponent: "house", level: "easy" });
    const friend = await http(server.url, "POST", "/api/v1/games", { opponent: "friend" });
    const challenge = await http(server.url, "POST", "/api/v1/agent/challenge", { agent: { name: "links-bot" } });
    await playToEnd(server.url, created.json.game.id, created.json.playerToken);
    const answers = [
      created.json,
      friend.json,
      challenge.json,
      (await http(server.url, "GET", `/api/v1/games/${created.json.game.id}`)).json,
      (await http(server.url, "GET", `/api/v1/games/${created.json.game.id}/sync`, undefined, bearer(created.json.playerToken))).json,
      (await http(server.url, "GET", `/api/v1/games/${created.json.game.id}/replay`)).json,
      (await http(server.url, "GET", `/api/v1/players/${created.json.player.id}`)).json,
      (await http(server.url, "GET", `/api/v1/agent/challenge/${challenge.json.token}`)).json,
    ];
    const links = new Set<string>();
    const collect = (v: unknown): void => {
      if (typeof v === "string" && v.startsWith("http")) links.add(v);
      else if (v && typeof v === "object") Object.values(v).forEach(collect);
    };
    answers.forEach(collect);
    assert.ok(links.size >= 8, [...links].join(", "));
    // The waiting game's replay and review are the links that do not answer yet: they say why, and when they will.
    for (const pending of [friend.json.game.urls.replay as string, friend.json.game.urls.review as string]) {
      const early = await http(server.url, "GET", pending.slice(server.url.length));
      assert.equal(early.status, 409);
      assert.equal(early.json.code, "game_not_finished");
      links.delete(pending);
    }
    for (const link of links) {
      assert.ok(link.startsWith(server.url), `${link} is not on the service`);
      const r = await fetch(link);
      assert.equal(r.status, 200, link);
      assert.ok((await r.text()).length > 100, `${link} answers next to nothing`);
    }
  });

  it("renders the API reference from the served OpenAPI document with the renderer's own files", async () => {
    const html = await page(`${server.url}/docs`);
    const local = [...html.matchAll(/(?:src|href)="(\/[^"]+)"/g)].map((m) => m[1]);
    assert.ok(local.includes("/docs/assets/swagger-ui-bundle.js") && local.includes("/api/v1/openapi.json"), local.join(", "));
    assert.doesNotMatch(html, /(?:src|href)="https?:/, "nothing from another origin");
    for (const path of local) {
      const r = await fetch(`${server.url}${path}`);
      assert.equal(r.status, 200, path);
      assert.ok((await r.arrayBuffer()).byteLength > 0, path);
    }
    const init = await (await fetch(`${server.url}/docs/reference.js`)).text();
    assert.match(init, /url: "\/api\/v1\/openapi\.json"/);
    assert.equal((await fetch(`${server.url}/docs/assets/index.html`)).status, 404);
  });
});
