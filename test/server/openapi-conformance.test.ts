/**
 * Plays scripted games over every operation the served OpenAPI document lists, and checks each real
 * answer against the document: the status must be documented for the operation, the content type must
 * be the documented one, and the body must validate against the documented schema. At the end, every
 * documented operation must have been exercised.
 */
import { strict as assert } from "node:assert";
import Ajv from "ajv/dist/2020";
import addFormats from "ajv-formats";
import type { RunningServer } from "../../src/server";
import { playToEnd } from "../agents/play";
import { generateSecret } from "../../src/services/events";
import { startReceiver, testCert, type Receiver } from "../events/helpers";
import { closed } from "../support/schema";
import { bootServer } from "../support/server";
import { playOpening } from "../support/play";

interface Operation {
  operationId: string;
  summary?: string;
  description?: string;
  parameters?: Array<{ name: string; in: string; schema: { type?: string; minimum?: number; maximum?: number } }>;
  responses: Record<string, { content?: Record<string, { schema: object }> }>;
}
type Doc = { paths: Record<string, Record<string, Operation>>; components: object };

describe("Integration: real answers conform to the OpenAPI document", function () {
  this.timeout(30_000);
  let server: RunningServer;
  let receiver: Receiver;
  let doc: Doc;
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  const exercised = new Map<string, Set<string>>();

  before(async () => {
    server = await bootServer({ webhookAllowPrivate: true }, { webhookCa: testCert().cert });
    receiver = await startReceiver();
    doc = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as Doc;
    // Closed: an answer may carry no member its schema does not name.
    ajv.addSchema({ $id: "doc", components: closed(doc.components) as object });
  });
  after(async () => {
    await receiver?.close();
    await server?.close();
  });

  /**
   * Calls the operation `method template` with `path` filled in, and checks the answer against the
   * document. Returns the parsed body (or null for an empty or non-JSON one).
   */
  async function call(method: string, template: string, path: string, init: { body?: unknown; headers?: Record<string, string> } = {}) {
    const op = doc.paths[template]?.[method.toLowerCase()];
    assert.ok(op, `${method} ${template} is not in the document`);
    const headers: Record<string, string> = { ...(init.body !== undefined ? { "content-type": "application/json" } : {}), ...init.headers };
    const res = await fetch(`${server.url}/api/v1${path}`, {
      method,
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      redirect: "manual",
    });
    const what = `${method} ${path} → ${res.status}`;
    const documented = op.responses[String(res.status)];
    const text = await res.text();
    assert.ok(
      documented,
      `${what} is not a documented status of ${op.operationId} (documented: ${Object.keys(op.responses).join(", ")}): ${text.slice(0, 300)}`,
    );
    const media = documented.content ? Object.keys(documented.content) : [];
    const type = (res.headers.get("content-type") ?? "").split(";")[0];
    let body: unknown = null;
    if (media.length === 0) {
      assert.equal(text, "", `${what}: documented without a body`);
    } else if (media.includes("*/*")) {
      assert.ok(text.length > 0, `${what}: empty body`);
    } else if (!type.endsWith("json")) {
      assert.ok(media.includes(type), `${what}: content type ${type}, documented ${media.join(", ")}`);
    } else {
      assert.ok(media.includes(type), `${what}: content type ${type}, documented ${media.join(", ")}`);
      body = JSON.parse(text);
      const schema = JSON.parse(JSON.stringify(closed(documented.content![type].schema)).replaceAll('"#/components', '"doc#/components')) as object;
      const validate = ajv.compile(schema);
      assert.ok(validate(body), `${what} does not match ${op.operationId}'s schema: ${ajv.errorsText(validate.errors)}\n${text.slice(0, 500)}`);
    }
    const statuses = exercised.get(`${method.toLowerCase()} ${template}`) ?? new Set<string>();
    statuses.add(String(res.status));
    exercised.set(`${method.toLowerCase()} ${template}`, statuses);
    return { status: res.status, body: body as any, headers: res.headers };
  }
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it("games against the house, a friend and hosted seats: create, list, join, read, sync, move, resign, replay, review", async () => {
    await call("GET", "/openapi.json", "/openapi.json");
    const house = await call("POST", "/games", "/games", { body: { opponent: "house", level: "easy", name: "Ann" } });
    assert.equal(house.status, 201);
    const friend = await call("POST", "/games", "/games", { body: { opponent: "friend", seat: "A" } });
    const hosted = await call("POST", "/games", "/games", { body: { opponent: "hosted" } });
    assert.equal(hosted.status, 201);
    assert.equal((await call("POST", "/games", "/games", { body: { opponent: "robot" } })).status, 400);
    assert.equal((await call("POST", "/games", "/games", { body: { opponent: "house", name: "x".repeat(70_000) } })).status, 413);
    assert.equal((await call("GET", "/games", "/games?limit=2")).status, 200);
    assert.equal((await call("GET", "/games", "/games?limit=many")).status, 400);

    assert.equal((await call("GET", "/games/join/{code}", `/games/join/${friend.body.code}`)).body.status, "open");
    assert.equal((await call("GET", "/games/join/{code}", "/games/join/NOSUCHCODE")).status, 404);
    const joined = await call("POST", "/games/join", "/games/join", { body: { code: friend.body.code, name: "Bob", reserveSeat: true } });
    assert.equal(joined.status, 200);
    assert.equal((await call("POST", "/games/join", "/games/join", { body: { code: friend.body.code } })).status, 409);
    assert.equal((await call("POST", "/games/join", "/games/join", { body: { code: "NOSUCHCODE" } })).status, 404);

    const fid = friend.body.game.id as string;
    const tokens: Record<string, string> = { A: friend.body.playerToken, B: joined.body.playerToken };
    const record = await call("GET", "/games/{id}", `/games/${fid}`);
    assert.equal((await call("GET", "/games/{id}", "/games/g_missing")).status, 404);
    const turn = record.body.turn as "A" | "B";
    const waiting = turn === "A" ? "B" : "A";
    const mine = await call("GET", "/games/{id}/sync", `/games/${fid}/sync`, { headers: bearer(tokens[turn]) });
    await call("GET", "/games/{id}/sync", `/games/${fid}/sync?since=0&timeout=0`);
    assert.equal((await call("GET", "/games/{id}/sync", `/games/${fid}/sync`, { headers: bearer("pt_wrong") })).status, 401);
    assert.equal((await call("GET", "/games/{id}/sync", `/games/${fid}/sync?since=99`)).status, 400);

    const card = mine.body.state.hand[0].id as string;
    assert.equal(
      (await call("POST", "/games/{id}/moves", `/games/${fid}/moves`, { body: { card, square: "a1" }, headers: bearer(tokens[waiting]) })).status,
      409,
    );
    assert.equal(
      (await call("POST", "/games/{id}/moves", `/games/${fid}/moves`, { body: { card: "Z9", square: "a1" }, headers: bearer(tokens[turn]) })).status,
      422,
    );
    assert.equal((await call("POST", "/games/{id}/moves", `/games/${fid}/moves`, { body: { card, square: "a1" } })).status, 401);
    assert.equal((await call("POST", "/games/{id}/moves", `/games/${fid}/moves`, { body: { card }, headers: bearer(tokens[turn]) })).status, 400);
    assert.equal((await call("POST", "/games/{id}/moves", `/games/${fid}/moves`, { body: { card, square: "a1" }, headers: bearer(tokens[turn]) })).status, 200);
    await call("GET", "/games/{id}/sync", `/games/${fid}/sync?since=0`, { headers: bearer(tokens[waiting]) });
    assert.equal((await call("GET", "/games/{id}/replay", `/games/${fid}/replay`)).status, 409);
    assert.equal((await call("GET", "/games/{id}/review", `/games/${fid}/review`)).status, 409);
    assert.equal((await call("POST", "/games/{id}/resign", `/games/${fid}/resign`)).status, 401);
    assert.equal((await call("POST", "/games/{id}/resign", `/games/${fid}/resign`, { headers: bearer(tokens[waiting]) })).status, 200);
    assert.equal((await call("POST", "/games/{id}/resign", `/games/${fid}/resign`, { headers: bearer(tokens[turn]) })).status, 409);
    assert.equal((await call("POST", "/games/{id}/moves", `/games/${fid}/moves`, { body: { card, square: "b1" }, headers: bearer(tokens[turn]) })).status, 409);
    await call("GET", "/games/{id}/replay", `/games/${fid}/replay`);
    await call("GET", "/games/{id}/sync", `/games/${fid}/sync`, { headers: bearer(tokens.A) });
    // Resigned before both seats placed a card, the game was aborted: it offers no rematch.
    assert.equal((await call("POST", "/games/{id}/rematch", `/games/${fid}/rematch`)).status, 401);
    assert.equal((await call("POST", "/games/{id}/rematch", `/games/${fid}/rematch`, { headers: bearer(tokens.A) })).status, 403);
    assert.equal((await call("DELETE", "/games/{id}/rematch", `/games/${fid}/rematch`, { headers: bearer(tokens.B) })).status, 403);
    assert.equal((await call("DELETE", "/games/{id}/rematch", "/games/g_missing/rematch", { headers: bearer(tokens.B) })).status, 404);

    const hid = house.body.game.id as string;
    await playToEnd(server.url, hid, house.body.playerToken);
    await call("GET", "/games/{id}/sync", `/games/${hid}/sync?since=15`, { headers: bearer(house.body.playerToken) });
    await call("GET", "/games/{id}", `/games/${hid}`);
    assert.equal((await call("GET", "/games/{id}/replay", `/games/${hid}/replay`)).status, 200);
    assert.equal((await call("GET", "/games/{id}/review", `/games/${hid}/review`)).status, 200);
    assert.equal((await call("GET", "/games/{id}/review", "/games/g_missing/review")).status, 404);
    assert.equal((await call("GET", "/game/{id}", `/game/${hid}`)).status, 308);

    const guest = house.body.player as { id: string; secret: string };
    assert.equal((await call("GET", "/players/{id}", `/players/${guest.id}`)).status, 200);
    assert.equal((await call("GET", "/players/{id}", "/players/P-NOBODY")).status, 404);
    const played = await call("GET", "/players/{id}/games", `/players/${guest.id}/games?limit=5`);
    assert.equal(played.body.games[0].id, hid);
    assert.equal(played.body.games[0].seat, house.body.seat);
    assert.equal((await call("GET", "/players/{id}/games", "/players/P-NOBODY/games")).status, 404);
    assert.equal((await call("GET", "/players/{id}/games", `/players/${guest.id}/games?limit=many`)).status, 400);
    const ratings = await call("GET", "/players/{id}/ratings", `/players/${guest.id}/ratings`);
    assert.deepEqual(
      ratings.body.ratings.map((r: { gameId: string }) => r.gameId),
      [hid],
    );
    assert.equal((await call("GET", "/players/{id}/ratings", "/players/P-NOBODY/ratings")).status, 404);
    assert.equal((await call("GET", "/players/{id}/ratings", `/players/${guest.id}/ratings?after=-1`)).status, 400);
    const ranking = await call("GET", "/players", "/players?limit=5");
    assert.ok(ranking.body.standings.some((s: { player: { id: string } }) => s.player.id === guest.id));
    assert.deepEqual(
      ranking.body.bots.map((b: { level: string }) => b.level),
      ["easy", "normal", "hard"],
    );
    assert.equal((await call("POST", "/players/{id}/claim", `/players/${guest.id}/claim`, { body: { secret: "ps_wrong-secret" } })).status, 401);
    assert.equal((await call("POST", "/players/{id}/claim", `/players/${guest.id}/claim`, { body: { secret: guest.secret, name: "Ann" } })).status, 201);
    assert.equal((await call("POST", "/players/{id}/claim", `/players/${guest.id}/claim`, { body: { secret: guest.secret } })).status, 409);
    assert.equal((await call("GET", "/players/{id}", `/players/${guest.id}`)).status, 200);
  });

  it("the quick-match queue: queued, polled, matched, left", async () => {
    const first = await call("POST", "/games/quick-match", "/games/quick-match", { body: { name: "Q1" } });
    assert.equal(first.status, 202);
    assert.equal((await call("GET", "/games/quick-match/{ticket}", `/games/quick-match/${first.body.ticket}`)).status, 202);
    const second = await call("POST", "/games/quick-match", "/games/quick-match", { body: { name: "Q2" } });
    assert.equal(second.status, 200);
    const matched = await call("GET", "/games/quick-match/{ticket}", `/games/quick-match/${first.body.ticket}?timeout=1`);
    assert.equal(matched.status, 200);
    // The matched game played, resigned, and rematched: offered, accepted, then too late to decline.
    const qid = matched.body.game.id as string;
    const qTokens = [matched.body.playerToken as string, second.body.playerToken as string];
    assert.equal((await call("POST", "/games/{id}/rematch", `/games/${qid}/rematch`, { headers: bearer(qTokens[0]) })).status, 409);
    await playOpening(server.url, qid, qTokens);
    assert.equal((await call("POST", "/games/{id}/resign", `/games/${qid}/resign`, { headers: bearer(qTokens[0]) })).status, 200);
    assert.equal((await call("POST", "/games/{id}/rematch", `/games/${qid}/rematch`, { headers: bearer(qTokens[0]) })).status, 200);
    assert.equal((await call("DELETE", "/games/{id}/rematch", `/games/${qid}/rematch`, { headers: bearer(qTokens[1]) })).status, 200);
    assert.equal((await call("POST", "/games/{id}/rematch", `/games/${qid}/rematch`, { headers: bearer(qTokens[1]) })).status, 200);
    const started = await call("POST", "/games/{id}/rematch", `/games/${qid}/rematch`, { headers: bearer(qTokens[0]) });
    assert.ok(started.body.game.playerToken);
    assert.equal((await call("DELETE", "/games/{id}/rematch", `/games/${qid}/rematch`, { headers: bearer(qTokens[1]) })).status, 409);
    assert.equal((await call("GET", "/games/quick-match/{ticket}", `/games/quick-match/${first.body.ticket}?timeout=99`)).status, 400);
    const third = await call("POST", "/games/quick-match", "/games/quick-match", { body: {} });
    assert.equal((await call("DELETE", "/games/quick-match/{ticket}", `/games/quick-match/${third.body.ticket}`)).status, 200);
    assert.equal((await call("DELETE", "/games/quick-match/{ticket}", "/games/quick-match/qm_nosuchticket00")).status, 404);
    assert.equal((await call("GET", "/games/quick-match/{ticket}", "/games/quick-match/qm_nosuchticket00")).status, 404);
    assert.equal((await call("POST", "/games/quick-match", "/games/quick-match", { body: { wait: "long" } })).status, 400);
  });

  it("events: the catalog, a verified subscription, refusals and unsubscribing", async () => {
    await call("GET", "/games/events", "/games/events");
    const game = await call("POST", "/games", "/games", { body: { opponent: "house" } });
    const delivery = { mode: "webhook", url: `${receiver.url}/hook`, secret: generateSecret() };
    const args = { game_id: game.body.game.id };
    assert.equal(
      (await call("POST", "/games/events/subscribe", "/games/events/subscribe", { body: { name: "game.move", arguments: args, delivery } })).status,
      201,
    );
    assert.equal(
      (
        await call("POST", "/games/events/subscribe", "/games/events/subscribe", {
          body: { name: "game.turn", arguments: { ...args, player_token: "pt_wrong" }, delivery },
        })
      ).status,
      401,
    );
    assert.equal(
      (await call("POST", "/games/events/subscribe", "/games/events/subscribe", { body: { name: "game.move", arguments: { game_id: "g_missing" }, delivery } }))
        .status,
      404,
    );
    assert.equal(
      (
        await call("POST", "/games/events/subscribe", "/games/events/subscribe", {
          body: { name: "game.move", arguments: args, delivery: { ...delivery, url: "http://127.0.0.1:9/h" } },
        })
      ).status,
      422,
    );
    assert.equal(
      (await call("POST", "/games/events/subscribe", "/games/events/subscribe", { body: { name: "game.nope", arguments: args, delivery } })).status,
      400,
    );
    assert.equal(
      (await call("POST", "/games/events/unsubscribe", "/games/events/unsubscribe", { body: { name: "game.move", arguments: args, delivery } })).status,
      200,
    );
    assert.equal((await call("POST", "/games/events/unsubscribe", "/games/events/unsubscribe", { body: {} })).status, 400);
  });

  it("agent challenges: create, read, accept, play, report, history", async () => {
    const ch = await call("POST", "/agent/challenge", "/agent/challenge", { body: { agent: { name: "doc-bot" }, level: "easy" } });
    assert.equal(ch.status, 201);
    assert.equal((await call("POST", "/agent/challenge", "/agent/challenge", { body: { agent: {} } })).status, 400);
    assert.equal((await call("GET", "/agent/challenge/{token}", `/agent/challenge/${ch.body.token}`)).status, 200);
    assert.equal((await call("GET", "/agent/challenge/{token}", "/agent/challenge/ch_nosuchchallenge000")).status, 404);
    const accepted = await call("POST", "/agent/challenge/{token}/accept", `/agent/challenge/${ch.body.token}/accept`, { body: { name: "Ada" } });
    assert.equal(accepted.status, 200);
    assert.equal((await call("POST", "/agent/challenge/{token}/accept", `/agent/challenge/${ch.body.token}/accept`, { body: {} })).status, 409);
    await playToEnd(server.url, accepted.body.game.id, accepted.body.playerToken);
    const end = await call("GET", "/games/{id}", `/games/${accepted.body.game.id}`);
    const report = { token: ch.body.token, gameId: accepted.body.game.id, winner: end.body.winner, score: end.body.score };
    assert.equal((await call("POST", "/agent/result", "/agent/result", { body: { ...report, score: { A: 0, B: 0 } } })).status, 422);
    assert.equal((await call("POST", "/agent/result", "/agent/result", { body: report })).status, 200);
    assert.equal((await call("POST", "/agent/result", "/agent/result", { body: report })).status, 409);
    assert.equal((await call("GET", "/agent/challenge/{token}", `/agent/challenge/${ch.body.token}`)).status, 200);
    assert.equal((await call("GET", "/agent/challenges", "/agent/challenges?agent=doc-bot")).status, 200);
    assert.equal((await call("GET", "/agent/challenges", "/agent/challenges")).status, 400);
  });

  it("leaderboards and client assets", async () => {
    const profile = await call("POST", "/games", "/games", { body: { opponent: "house", name: "Member" } });
    await server.store.communities.createCommunity({
      id: "docs-club",
      kind: "club",
      name: "Docs club",
      members: [profile.body.player.id],
      createdAt: new Date().toISOString(),
    });
    await server.store.communities.createCommunity({
      id: "docs-community",
      kind: "community",
      name: "Docs community",
      members: [profile.body.player.id],
      createdAt: new Date().toISOString(),
    });
    await call("GET", "/clubs", "/clubs");
    assert.equal((await call("GET", "/clubs/{id}", "/clubs/docs-club?limit=5")).status, 200);
    assert.equal((await call("GET", "/clubs/{id}", "/clubs/nope")).status, 404);
    await call("GET", "/communities", "/communities?offset=0");
    assert.equal((await call("GET", "/communities/{id}", "/communities/docs-community")).status, 200);
    assert.equal((await call("GET", "/communities", "/communities?limit=0")).status, 400);
    const manifest = await call("GET", "/clients/manifest", "/clients/manifest");
    assert.equal((await call("GET", "/clients/manifest", "/clients/manifest", { headers: { "if-none-match": manifest.headers.get("etag")! } })).status, 304);
    const asset = manifest.body.assets[0] as { path: string; sha256: string };
    const got = await call("GET", "/clients/assets/{path}", `/clients/assets/${asset.path}`);
    assert.equal(got.status, 200);
    assert.equal(
      (await call("GET", "/clients/assets/{path}", `/clients/assets/${asset.path}`, { headers: { "if-none-match": got.headers.get("etag")! } })).status,
      304,
    );
    assert.equal((await call("GET", "/clients/assets/{path}", "/clients/assets/no/such.svg")).status, 404);
  });

  it("the rules as data: every version, one version, an unknown version", async () => {
    const all = await call("GET", "/rules", "/rules");
    assert.equal(all.status, 200);
    assert.deepEqual(
      all.body.versions.map((v: { version: number }) => v.version),
      [1, 2, 3, 4],
    );
    // Version 4 differs from 3 only in how the deal is drawn, and says so.
    const [v3, v4] = [(await call("GET", "/rules/{version}", "/rules/3")).body, (await call("GET", "/rules/{version}", "/rules/4")).body];
    assert.deepEqual([v3.current, v4.current], [false, true]);
    assert.deepEqual([v3.deal.generator, v4.deal.generator], ["xoroshiro128plus", "hmac-sha256"]);
    assert.equal((await call("GET", "/rules/{version}", "/rules/9")).status, 404);
    assert.equal((await call("GET", "/rules/{version}", "/rules/two")).status, 404);
  });

  it("bot accounts: register, read with the key, read by id, revoke, and play as the bot", async () => {
    const reg = await call("POST", "/bots", "/bots", { body: { name: "Doc bot" } });
    assert.equal(reg.status, 201);
    assert.equal((await call("POST", "/bots", "/bots", { body: { name: "" } })).status, 400);
    const key = reg.body.key as string;
    assert.equal((await call("GET", "/bots/me", "/bots/me", { headers: bearer(key) })).status, 200);
    assert.equal((await call("GET", "/bots/me", "/bots/me")).status, 401);
    assert.equal((await call("GET", "/bots/{id}", `/bots/${reg.body.bot.id}`)).status, 200);
    assert.equal((await call("GET", "/bots/{id}", "/bots/BOT-NOSUCH")).status, 404);
    const listed = await call("GET", "/bots", "/bots?limit=100");
    assert.ok(listed.body.bots.some((b: { id: string }) => b.id === reg.body.bot.id));
    assert.equal((await call("GET", "/bots", "/bots?offset=x")).status, 400);
    const game = await call("POST", "/games", "/games", { body: { opponent: "house" }, headers: bearer(key) });
    assert.equal(game.status, 201);
    assert.equal(game.body.player.kind, "bot");
    const other = await call("POST", "/bots", "/bots", { body: { name: "Doc rival" } });
    const challenged = await call("POST", "/bots/{id}/challenge", `/bots/${other.body.bot.id}/challenge`, { body: {}, headers: bearer(key) });
    assert.equal(challenged.status, 201);
    const declineAt = `/bots/challenges/${challenged.body.code}/decline`;
    assert.equal((await call("POST", "/bots/challenges/{code}/decline", declineAt, { headers: bearer(key) })).status, 403);
    assert.equal((await call("POST", "/bots/challenges/{code}/decline", declineAt)).status, 401);
    assert.equal((await call("POST", "/bots/challenges/{code}/decline", "/bots/challenges/NOSUCH/decline", { headers: bearer(other.body.key) })).status, 404);
    assert.equal((await call("POST", "/bots/challenges/{code}/decline", declineAt, { headers: bearer(other.body.key) })).status, 200);
    assert.equal((await call("POST", "/bots/challenges/{code}/decline", declineAt, { headers: bearer(other.body.key) })).status, 410);
    assert.equal((await call("POST", "/bots/{id}/challenge", "/bots/BOT-NOSUCH/challenge", { body: {}, headers: bearer(key) })).status, 404);
    assert.equal((await call("GET", "/stream/events", "/stream/events")).status, 401);
    // A finished game's stream is one line, then it ends: read whole and checked line by line.
    await playToEnd(server.url, game.body.game.id, game.body.playerToken);
    const streamed = await fetch(`${server.url}/api/v1/stream/games/${game.body.game.id}`, { headers: bearer(game.body.playerToken) });
    const lines = (await streamed.text()).split("\n").filter((l) => l.trim() !== "");
    const schema = JSON.parse(
      JSON.stringify(closed(doc.paths["/stream/games/{id}"].get.responses["200"].content!["application/x-ndjson"].schema)).replaceAll(
        '"#/components',
        '"doc#/components',
      ),
    ) as object;
    const validate = ajv.compile(schema);
    for (const l of lines) assert.ok(validate(JSON.parse(l)), ajv.errorsText(validate.errors));
    assert.equal(JSON.parse(lines.at(-1)!).status, "finished");
    exercised.set("get /stream/games/{id}", new Set(["200"]));
    assert.equal((await call("DELETE", "/bots/me", "/bots/me", { headers: bearer(key) })).status, 200);
    assert.equal((await call("DELETE", "/bots/me", "/bots/me", { headers: bearer(key) })).status, 401);
  });

  it("every operation has a summary and a description, and query integers are typed integers with their ranges", () => {
    const ops = Object.entries(doc.paths).flatMap(([path, byMethod]) => Object.entries(byMethod).map(([m, op]) => ({ at: `${m} ${path}`, op: op })));
    assert.deepEqual(
      ops.filter(({ op }) => !op.summary || !op.description).map((o) => o.at),
      [],
    );
    const ints = ops.flatMap(({ at, op }) =>
      (op.parameters ?? []).filter((p) => ["since", "timeout", "limit", "offset"].includes(p.name)).map((p) => ({ at, p })),
    );
    assert.ok(ints.length >= 8, `query integers found: ${ints.length}`);
    for (const { at, p } of ints) {
      assert.equal(p.schema.type, "integer", `${at} ${p.name}`);
      assert.equal(typeof p.schema.minimum, "number", `${at} ${p.name} has a minimum`);
    }
  });

  it("public log: head, key, a finished game's proof, consistency, entries, refusals", async () => {
    const g = await call("POST", "/games", "/games", { body: { opponent: "house", level: "easy", name: "Logged" } });
    const id = g.body.game.id as string;
    await playToEnd(server.url, id, g.body.playerToken as string);
    let proof = await call("GET", "/log/games/{id}/proof", `/log/games/${id}/proof`);
    for (let i = 0; i < 100 && proof.status === 404; i++) {
      await new Promise((r) => setTimeout(r, 100));
      proof = await call("GET", "/log/games/{id}/proof", `/log/games/${id}/proof`);
    }
    assert.equal(proof.status, 200);
    assert.equal((await call("GET", "/log/games/{id}/proof", `/log/games/${id}/proof?treeSize=999999`)).status, 400);
    assert.equal((await call("GET", "/games/{id}", `/games/${id}`)).body.logIndex, proof.body.index);
    assert.equal((await call("GET", "/games/{id}/replay", `/games/${id}/replay`)).body.logIndex, proof.body.index);
    await call("GET", "/log/head", "/log/head");
    await call("GET", "/log/key", "/log/key");
    assert.equal((await call("GET", "/log/checkpoint", "/log/checkpoint")).status, 200);
    assert.equal((await call("GET", "/log/consistency", "/log/consistency?first=1")).status, 200);
    assert.equal((await call("GET", "/log/consistency", "/log/consistency?first=x")).status, 400);
    assert.equal((await call("GET", "/log/entries", "/log/entries?from=0&count=10")).status, 200);
    assert.equal((await call("GET", "/log/entries", "/log/entries?count=0")).status, 400);
    const exported = await fetch(`${server.url}/api/v1/exports/games?from=0`);
    assert.equal(exported.headers.get("content-type"), "application/x-ndjson");
    const lines = (await exported.text()).split("\n").filter((l) => l.trim() !== "");
    assert.ok(lines.length >= 1);
    const schema = JSON.parse(
      JSON.stringify(closed(doc.paths["/exports/games"].get.responses["200"].content!["application/x-ndjson"].schema)).replaceAll(
        '"#/components',
        '"doc#/components',
      ),
    ) as object;
    const validate = ajv.compile(schema);
    for (const l of lines) assert.ok(validate(JSON.parse(l)), ajv.errorsText(validate.errors));
    assert.equal((await call("GET", "/exports/games", "/exports/games?month=2026-13")).status, 400);
    if (exercised.has("get /exports/games")) exercised.get("get /exports/games")!.add("200");
    else exercised.set("get /exports/games", new Set(["200"]));
  });

  it("tournaments: create, list, read, join, start, withdraw, standings, games, TRF, refusals", async () => {
    const created = await call("POST", "/tournaments", "/tournaments", { body: { name: "Docs swiss", rounds: 2 } });
    assert.equal(created.status, 201);
    const id = created.body.tournament.id as string;
    assert.equal((await call("POST", "/tournaments", "/tournaments", { body: { name: "", rounds: 99 } })).status, 400);
    await call("GET", "/tournaments", "/tournaments?limit=5");
    assert.equal((await call("GET", "/tournaments", "/tournaments?limit=0")).status, 400);
    const tokens: string[] = [];
    for (const name of ["Ann", "Ben", "Cal"]) {
      const j = await call("POST", "/tournaments/{id}/join", `/tournaments/${id}/join`, { body: { name } });
      assert.equal(j.status, 201);
      tokens.push(j.body.playerToken as string);
    }
    const auth = (t: string) => ({ headers: { authorization: `Bearer ${t}` } });
    assert.equal((await call("POST", "/tournaments/{id}/start", `/tournaments/${id}/start`, auth(tokens[0]))).status, 403);
    assert.equal((await call("POST", "/tournaments/{id}/start", `/tournaments/${id}/start`)).status, 401);
    assert.equal((await call("POST", "/tournaments/{id}/start", `/tournaments/${id}/start`, auth(created.body.directorToken))).status, 200);
    assert.equal((await call("POST", "/tournaments/{id}/join", `/tournaments/${id}/join`, { body: { name: "Late" } })).status, 409);
    assert.equal((await call("POST", "/tournaments/{id}/withdraw", `/tournaments/${id}/withdraw`, auth(tokens[2]))).status, 200);
    assert.equal((await call("POST", "/tournaments/{id}/withdraw", `/tournaments/${id}/withdraw`)).status, 401);
    assert.equal((await call("GET", "/tournaments/{id}", `/tournaments/${id}`)).status, 200);
    assert.equal((await call("GET", "/tournaments/{id}", "/tournaments/t_nosuchthing1")).status, 404);
    assert.equal((await call("GET", "/tournaments/{id}/standings", `/tournaments/${id}/standings`)).status, 200);
    assert.equal((await call("GET", "/tournaments/{id}/games", `/tournaments/${id}/games`)).status, 200);
    assert.equal((await call("GET", "/tournaments/{id}/trf", `/tournaments/${id}/trf`)).status, 200);
    assert.equal((await call("GET", "/tournaments/{id}/trf", "/tournaments/t_nosuchthing1/trf")).status, 404);
  });

  it("leagues: create, list, read, join with a bot key, start, standings, games, refusals", async () => {
    const created = await call("POST", "/leagues", "/leagues", { body: { name: "Docs league", deals: 1 } });
    assert.equal(created.status, 201);
    const id = created.body.league.id as string;
    assert.equal((await call("POST", "/leagues", "/leagues", { body: { name: "Too many", deals: 99 } })).status, 400);
    await call("GET", "/leagues", "/leagues?limit=5");
    assert.equal((await call("GET", "/leagues", "/leagues?limit=0")).status, 400);
    const auth = (t: string) => ({ headers: { authorization: `Bearer ${t}` } });
    assert.equal((await call("POST", "/leagues/{id}/join", `/leagues/${id}/join`)).status, 401);
    for (const name of ["League bot 1", "League bot 2"]) {
      const reg = await call("POST", "/bots", "/bots", { body: { name } });
      const j = await call("POST", "/leagues/{id}/join", `/leagues/${id}/join`, auth(reg.body.key as string));
      assert.equal(j.status, 201);
      assert.equal((await call("POST", "/leagues/{id}/join", `/leagues/${id}/join`, auth(reg.body.key as string))).status, 409);
      if (name.endsWith("1")) assert.equal((await call("POST", "/leagues/{id}/start", `/leagues/${id}/start`, auth(j.body.playerToken as string))).status, 403);
    }
    assert.equal((await call("POST", "/leagues/{id}/start", `/leagues/${id}/start`)).status, 401);
    assert.equal((await call("POST", "/leagues/{id}/start", `/leagues/${id}/start`, auth(created.body.directorToken))).status, 200);
    assert.equal((await call("POST", "/leagues/{id}/start", `/leagues/${id}/start`, auth(created.body.directorToken))).status, 409);
    assert.equal((await call("GET", "/leagues/{id}", `/leagues/${id}`)).status, 200);
    assert.equal((await call("GET", "/leagues/{id}", "/leagues/l_nosuchthing1")).status, 404);
    assert.equal((await call("GET", "/leagues/{id}/standings", `/leagues/${id}/standings`)).status, 200);
    assert.equal((await call("GET", "/leagues/{id}/standings", "/leagues/l_nosuchthing1/standings")).status, 404);
    const games = await call("GET", "/leagues/{id}/games", `/leagues/${id}/games`);
    assert.equal(games.body.deals.length, 1);
    assert.equal((await call("GET", "/leagues/{id}/games", "/leagues/l_nosuchthing1/games")).status, 404);
  });

  it("exercised every documented operation", function () {
    // It judges what the tests above called: with only some of them run (mocha -g), it has no verdict to give.
    if (this.test!.parent!.tests.some((t) => t !== this.test && t.state === undefined)) this.skip();
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`));
    assert.deepEqual(
      documented.filter((op) => !exercised.has(op)),
      [],
    );
  });
});
