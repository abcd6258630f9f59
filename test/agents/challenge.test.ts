/**
 * A hosted agent challenge end to end on a real server: the agent asks for a link, the human accepts and
 * plays the house game over REST, the game client reports the result, the agent reads the verified result,
 * and challenge.played reaches an HTTPS webhook (also at once for a subscription made afterwards).
 */
import assert from "node:assert/strict";
import { generateSecret } from "../../src/services/events";
import type { RunningServer } from "../../src/server";
import { startReceiver, testCert, type Receiver } from "../events/helpers";
import { bearer, bootServer, http } from "../support/server";
import { playOpening } from "../support/play";
import { playToEnd, waitForJson } from "./play";

describe("AgentChallenges", function () {
  this.timeout(60_000);
  let server: RunningServer;
  let receiver: Receiver;
  let base: string;
  const post = (path: string, body: unknown) => http(base, "POST", `/api/v1${path}`, body);
  const subscribe = (token: string, url: string) =>
    post("/games/events/subscribe", { name: "challenge.played", arguments: { token }, delivery: { mode: "webhook", url, secret: generateSecret() } });

  before(async () => {
    receiver = await startReceiver();
    server = await bootServer({ webhookAllowPrivate: true }, { webhookCa: testCert().cert, webhookRetryDelaysMs: [10, 20] });
    base = server.url;
  });
  after(async () => {
    await server?.close();
    await receiver?.close();
  });

  it("plays a challenge from link to verified result and fires challenge.played", async () => {
    const created = await post("/agent/challenge", { agent: { name: "e2e-bot", url: "https://agent.example/bot" }, level: "easy" });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.json.status, "open");
    assert.match(created.json.token, /^ch_/);
    assert.equal(created.json.url, `${base}/challenge/${created.json.token}`);
    assert.ok(Date.parse(created.json.expiresAt) > Date.now());
    assert.match(created.headers.get("ratelimit-policy") ?? "", /q=30/);
    assert.ok(created.headers.get("ratelimit"));
    const token: string = created.json.token;

    assert.equal((await subscribe(token, receiver.url)).status, 201);
    const early = await post("/agent/result", { token, gameId: "g_nope", winner: "A", score: { A: 6, B: 4 } });
    assert.equal(early.status, 422);
    assert.equal(early.json.code, "result_mismatch");

    const accepted = await post(`/agent/challenge/${token}/accept`, { name: "Human" });
    assert.equal(accepted.status, 200, accepted.text);
    const { game, seat, playerToken, player } = accepted.json;
    assert.ok(game.id && playerToken && player.id && player.secret);
    assert.ok(seat === "A" || seat === "B");
    assert.equal(game.players[seat === "A" ? "B" : "A"].kind, "house");
    assert.equal(game.level, "easy");
    const again = await post(`/agent/challenge/${token}/accept`, {});
    assert.equal(again.status, 409);
    assert.equal(again.json.code, "already_joined");

    const playing = await http(base, "GET", `/api/agent/challenge/${token}`);
    assert.equal(playing.json.status, "playing");
    assert.equal(playing.json.gameId, game.id);
    const tooSoon = await post("/agent/result", { token, gameId: game.id, winner: "A", score: { A: 5, B: 5 } });
    assert.equal(tooSoon.status, 409);
    assert.equal(tooSoon.json.code, "game_not_finished");

    const end = await playToEnd(base, game.id, playerToken);
    const record = (await http(base, "GET", `/api/v1/games/${game.id}`)).json;
    assert.equal(record.status, "finished");

    // Refusals, before the genuine report: forged token, another game, a disagreeing winner and score.
    const forged = await post("/agent/result", { token: "ch_forgedforgedforgedforged", gameId: game.id, winner: record.winner, score: record.score });
    assert.equal(forged.status, 404);
    assert.equal(forged.headers.get("content-type"), "application/problem+json; charset=utf-8");
    const otherGame = await post("/agent/result", { token, gameId: "g_another", winner: record.winner, score: record.score });
    assert.equal(otherGame.json.code, "result_mismatch");
    const wrongWinner = record.winner === "A" ? "B" : "A";
    const lie = await post("/agent/result", { token, gameId: game.id, winner: wrongWinner, score: record.score });
    assert.equal(lie.status, 422);
    assert.equal(lie.json.code, "result_mismatch");
    assert.equal(lie.json.field, "winner");
    const badScore = await post("/agent/result", { token, gameId: game.id, winner: record.winner, score: { A: record.score.A + 1, B: record.score.B } });
    assert.equal(badScore.json.field, "score");

    const report = await post("/agent/result", { token, gameId: game.id, winner: end.winner, score: record.score });
    assert.equal(report.status, 200, report.text);
    assert.match(report.headers.get("ratelimit-policy") ?? "", /q=60/);
    assert.equal(report.json.status, "played");
    assert.deepEqual(report.json.result.score, record.score);
    assert.equal(report.json.result.verified, true);
    assert.equal(report.json.result.reported, true);
    const dup = await post("/agent/result", { token, gameId: game.id, winner: end.winner, score: record.score });
    assert.equal(dup.status, 409);
    assert.equal(dup.json.code, "conflict");

    const read = await http(base, "GET", `/api/v1/agent/challenge/${token}`);
    assert.equal(read.json.status, "played");
    assert.equal(read.json.result.winner, record.winner);
    assert.equal(read.json.result.humanSeat, seat);
    assert.equal(read.json.human.id, player.id);
    const profile = (await http(base, "GET", `/api/v1/players/${player.id}`)).json;
    assert.equal(read.json.human.rating, profile.player.rating);
    assert.equal(profile.player.games, 1);
    assert.equal(read.json.replayUrl, `${base}/api/v1/games/${game.id}/replay`);
    assert.equal((await http(base, "GET", new URL(read.json.replayUrl).pathname)).status, 200);

    const history = await http(base, "GET", "/api/v1/agent/challenges?agent=e2e-bot");
    assert.equal(history.status, 200);
    assert.equal(history.json.challenges.length, 1);
    assert.equal(history.json.challenges[0].status, "played");
    assert.equal(history.json.challenges[0].replayUrl, read.json.replayUrl);
    assert.ok(!history.text.includes(token), "the public history shows the challenge's token");

    await receiver.waitFor(1);
    const [delivery] = receiver.events();
    assert.equal(delivery.json.name, "challenge.played");
    assert.ok(delivery.headers["webhook-signature"]?.startsWith("v1,"));
    const d = delivery.json.data;
    assert.equal(d.token, token);
    assert.equal(d.game_id, game.id);
    assert.equal(d.winner, record.winner);
    assert.equal(d.human_seat, seat);
    assert.deepEqual(d.score, record.score);
    assert.equal(d.decided_by, "board_full");
    assert.deepEqual(d.human, { id: player.id, rating: profile.player.rating });
    assert.equal(d.replay_url, read.json.replayUrl);

    // Subscribing after the challenge was played fires at once, and the first subscription got it once.
    assert.equal((await subscribe(token, receiver.url.replace("/hook", "/late"))).status, 201);
    await receiver.waitFor(2);
    const late = receiver.events()[1];
    assert.equal(late.path, "/late");
    assert.equal(late.json.data.token, token);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(receiver.events().filter((e) => e.path === "/hook").length, 1);
  });

  it("becomes played when its game ends even if no result is reported", async () => {
    const { token } = (await post("/agent/challenge", { agent: { name: "silent-bot" } })).json;
    const { game, playerToken } = (await post(`/agent/challenge/${token}/accept`, {})).json;
    await playOpening(base, game.id, [playerToken]);
    const resigned = await http(base, "POST", `/api/v1/games/${game.id}/resign`, undefined, bearer(playerToken));
    assert.equal(resigned.status, 200, resigned.text);
    const played = await waitForJson(base, `/api/v1/agent/challenge/${token}`, (j) => j.status === "played");
    assert.equal(played.result.decidedBy, "resignation");
    assert.equal(played.result.reported, false);
  });

  it("expires an unaccepted challenge: accept and reports answer code_expired", async () => {
    const { token } = (await post("/agent/challenge", { agent: { name: "slow-bot" }, expiresInSeconds: 1 })).json;
    await new Promise((r) => setTimeout(r, 1100));
    assert.equal((await http(base, "GET", `/api/v1/agent/challenge/${token}`)).json.status, "expired");
    const accept = await post(`/agent/challenge/${token}/accept`, {});
    assert.equal(accept.status, 410);
    assert.equal(accept.json.code, "code_expired");
    const report = await post("/agent/result", { token, gameId: "g_x", winner: "A", score: { A: 6, B: 4 } });
    assert.equal(report.status, 410);
    assert.equal(report.json.code, "code_expired");
  });

  it("refuses malformed bodies with bad_request and unknown tokens with not_found", async () => {
    const bad = await post("/agent/challenge", { agent: {} });
    assert.equal(bad.status, 400);
    assert.equal(bad.json.code, "bad_request");
    assert.equal((await http(base, "GET", "/api/v1/agent/challenge/ch_doesnotexist0000000")).status, 404);
    assert.equal((await http(base, "GET", "/api/v1/agent/challenges")).json.code, "bad_request");
  });

  it("never lists an open challenge's token, refuses a guessed accept, and seats the link's holder", async () => {
    const created = (await post("/agent/challenge", { agent: { name: "victim-bot" } })).json;
    const listed = await http(base, "GET", "/api/v1/agent/challenges?agent=victim-bot");
    assert.equal(listed.status, 200);
    assert.equal(listed.json.challenges.length, 1);
    assert.equal(listed.json.challenges[0].status, "open");
    assert.ok(!listed.text.includes(created.token), `the history shows the token: ${listed.text}`);
    assert.ok(!/ch_[A-Za-z0-9_-]{16,}/.test(listed.text), `the history shows a token: ${listed.text}`);
    for (const field of ["token", "url", "gameId", "urls"]) assert.ok(!(field in listed.json.challenges[0]), `history shows ${field}`);

    const guessed = await post(`/agent/challenge/ch_${"A".repeat(24)}/accept`, {});
    assert.equal(guessed.status, 404);
    assert.equal(guessed.json.code, "not_found");
    const intended = await post(`/agent/challenge/${created.token}/accept`, { name: "Ada" });
    assert.equal(intended.status, 200, intended.text);
    assert.match(intended.json.playerToken, /^pt_/);
  });
});
