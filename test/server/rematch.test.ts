import { strict as assert } from "node:assert";
import type { RunningServer } from "../../src/server";
import { RoomAccess } from "../../src/services/games/room-access";
import { newGameId, sha256Hex } from "../../src/shared/secrets";
import { playOpening, seatedFriendGame } from "../support/play";
import { bearer, bootServer, eventually, http } from "../support/server";
import { consumeWs, joinWs, type WsPlayer } from "../support/ws";

/** What a seat's client received of a rematch, by message type. */
function rematchInbox(p: WsPlayer) {
  const got: Record<string, any[]> = { rematchOffered: [], rematchDeclined: [], rematchStarted: [] };
  for (const type of Object.keys(got)) p.room.onMessage(type, (m) => got[type].push(m));
  return got;
}

describe("Integration: a rematch of a finished game, seats swapped", function () {
  this.timeout(60_000);
  let server: RunningServer;
  before(async () => {
    server = await bootServer();
  });
  after(async () => server.close());

  /** A friend game between Ann and Bob, finished by a rated resignation of A once both seats placed a card. */
  async function finishedFriendGame() {
    const { id, tokens, players } = await seatedFriendGame(server.url, { create: { name: "Ann" }, join: { name: "Bob" } });
    await playOpening(server.url, id, [tokens.A, tokens.B]);
    return { id, tokens, players };
  }

  const resign = (id: string, token: string) => http(server.url, "POST", `/api/v1/games/${id}/resign`, undefined, bearer(token));

  it("over WebSocket: A offers, B accepts, each seat gets only its own token, seats swapped, and the new game plays", async () => {
    const { id, tokens, players } = await finishedFriendGame();
    const A = await joinWs(server.url, id, tokens.A);
    const B = await joinWs(server.url, id, tokens.B);
    const spectator = await joinWs(server.url, id);
    const [inA, inB, inS] = [rematchInbox(A), rematchInbox(B), rematchInbox(spectator)];
    assert.equal((await resign(id, tokens.A)).status, 200);
    await eventually(() => A.room.state?.status === "finished" && B.room.state?.status === "finished", "both seats see the end");
    // Longer than the test server's finished grace (200 ms): the room stays open while both seats are here.
    await new Promise((r) => setTimeout(r, 500));
    spectator.room.send("rematch");
    await eventually(() => spectator.refused.length > 0, "the spectator's offer refused");
    assert.equal(spectator.refused[0].code, "unauthorized");
    A.room.send("rematch");
    await eventually(() => inB.rematchOffered.length > 0, "B told of A's offer");
    assert.deepEqual(inB.rematchOffered[0], { by: "A" });
    const seatView = await http(server.url, "GET", `/api/v1/games/${id}/sync`, undefined, bearer(tokens.B));
    assert.deepEqual(seatView.json.rematch, { offeredBy: "A" });
    B.room.send("rematch");
    await eventually(() => inA.rematchStarted.length > 0 && inB.rematchStarted.length > 0, "both seats told of the start");
    const [sa, sb] = [inA.rematchStarted[0], inB.rematchStarted[0]];
    assert.equal(sa.gameId, sb.gameId);
    assert.equal(sa.seat, "B");
    assert.equal(sb.seat, "A");
    // Each seat plays the rematch with the token it played this game with.
    assert.deepEqual([sa.playerToken, sb.playerToken], [tokens.A, tokens.B]);
    // Each seat's clients received their own token only; a spectator nothing of the rematch.
    assert.ok(!B.frames.some((f) => f.includes(Buffer.from(sa.playerToken))), "B received A's new token");
    assert.ok(!A.frames.some((f) => f.includes(Buffer.from(sb.playerToken))), "A received B's new token");
    assert.equal(inS.rematchStarted.length + inS.rematchOffered.length, 0);
    const record = await http(server.url, "GET", `/api/v1/games/${sa.gameId}`);
    assert.equal(record.json.status, "active");
    assert.equal(record.json.ruleset, (await http(server.url, "GET", `/api/v1/games/${id}`)).json.ruleset);
    const before = (await http(server.url, "GET", `/api/v1/games/${id}`)).json.players;
    assert.equal(record.json.players.A.name, before.B.name);
    assert.equal(record.json.players.B.name, before.A.name);
    // Connected at once through the seat reservations; the new game plays to its end and rates the same profiles.
    const [nA, nB] = await Promise.all([consumeWs(server.url, sa.seatReservation), consumeWs(server.url, sb.seatReservation)]);
    const [end] = await Promise.all([nA.playToEnd(), nB.playToEnd()]);
    assert.equal(end.status, "finished");
    for (const p of Object.values(players)) {
      const profile = await http(server.url, "GET", `/api/v1/players/${p}`);
      assert.equal(profile.json.player.games, 2, JSON.stringify(profile.json.player));
    }
    const finishedView = await http(server.url, "GET", `/api/v1/games/${id}/sync`, undefined, bearer(tokens.A));
    assert.deepEqual(finishedView.json.rematch, { offeredBy: "A", gameId: sa.gameId });
    await Promise.all([A, B, spectator, nA, nB].map((p) => p.leave().catch(() => undefined)));
  });

  it("over WebSocket: B declines A's offer; nothing starts and A may offer again", async () => {
    const { id, tokens } = await finishedFriendGame();
    const A = await joinWs(server.url, id, tokens.A);
    const B = await joinWs(server.url, id, tokens.B);
    const [inA, inB] = [rematchInbox(A), rematchInbox(B)];
    await resign(id, tokens.B);
    await eventually(() => A.room.state?.status === "finished", "A sees the end");
    A.room.send("rematch");
    await eventually(() => inB.rematchOffered.length > 0, "B told of the offer");
    B.room.send("declineRematch");
    await eventually(() => inA.rematchDeclined.length > 0, "A told of the decline");
    assert.deepEqual(inA.rematchDeclined[0], { by: "B" });
    const view = await http(server.url, "GET", `/api/v1/games/${id}/sync`, undefined, bearer(tokens.A));
    assert.deepEqual(view.json.rematch, { offeredBy: null });
    assert.equal(inA.rematchStarted.length + inB.rematchStarted.length, 0);
    A.room.send("rematch");
    await eventually(() => inB.rematchOffered.length === 2, "B told of A's second offer");
    // Past the finished grace (200 ms here) the room is held for the rematch while both seats are connected...
    const rooms = new RoomAccess(server.store.games, server.log);
    await new Promise((r) => setTimeout(r, 400));
    assert.ok(rooms.localGame(id), "the finished room was released while both seats were connected");
    // ...and released once a seat has gone; the offer stays readable over REST.
    await B.leave();
    await eventually(() => rooms.localGame(id) === undefined, "the room released after B left");
    const after = await http(server.url, "GET", `/api/v1/games/${id}/sync`, undefined, bearer(tokens.B));
    assert.deepEqual(after.json.rematch, { offeredBy: "A" });
    // The room closed A's connection when it was released: A has left already.
    await eventually(() => !A.room.connection.isOpen, "A's connection closed with the room");
  });

  it("over REST: offer, seat view, accept answers each seat's place and token; refusals are problem documents", async () => {
    const { id, tokens } = await finishedFriendGame();
    const early = await http(server.url, "POST", `/api/v1/games/${id}/rematch`, undefined, bearer(tokens.A));
    assert.equal(early.status, 409);
    assert.equal(early.json.code, "game_not_finished");
    await resign(id, tokens.A);
    const anonymous = await http(server.url, "POST", `/api/v1/games/${id}/rematch`);
    assert.equal(anonymous.status, 401);
    const offered = await http(server.url, "POST", `/api/v1/games/${id}/rematch`, undefined, bearer(tokens.B));
    assert.equal(offered.status, 200, offered.text);
    assert.deepEqual(offered.json, { rematch: { offeredBy: "B" } });
    const seen = await http(server.url, "GET", `/api/v1/games/${id}/sync`, undefined, bearer(tokens.A));
    assert.deepEqual(seen.json.rematch, { offeredBy: "B" });
    const spectatorView = await http(server.url, "GET", `/api/v1/games/${id}/sync`);
    assert.equal(spectatorView.json.rematch, undefined);
    const accepted = await http(server.url, "POST", `/api/v1/games/${id}/rematch`, undefined, bearer(tokens.A));
    assert.equal(accepted.status, 200, accepted.text);
    assert.equal(accepted.json.game.seat, "B");
    const newId = accepted.json.game.id;
    assert.deepEqual(accepted.json.rematch, { offeredBy: "B", gameId: newId });
    // The offerer learns the start from its seat view and takes its token with a second request.
    const again = await http(server.url, "POST", `/api/v1/games/${id}/rematch`, undefined, bearer(tokens.B));
    assert.equal(again.json.game.id, newId);
    assert.equal(again.json.game.seat, "A");
    assert.deepEqual([again.json.game.playerToken, accepted.json.game.playerToken], [tokens.B, tokens.A], "each seat's own token");
    const late = await http(server.url, "DELETE", `/api/v1/games/${id}/rematch`, undefined, bearer(tokens.B));
    assert.equal(late.status, 409);
    // The tokens are the new game's seats, swapped.
    const newA = await http(server.url, "GET", `/api/v1/games/${newId}/sync`, undefined, bearer(again.json.game.playerToken));
    assert.equal(newA.json.seat, "A");
    const newB = await http(server.url, "GET", `/api/v1/games/${newId}/sync`, undefined, bearer(accepted.json.game.playerToken));
    assert.equal(newB.json.seat, "B");
  });

  it("counts a rematch's game once when two acceptances create it at once", async () => {
    const started = async () => {
      const text = (await http(server.url, "GET", "/metrics")).text;
      return Number(/^arena_games_started_total\{opponent="friend"\} (\d+)/m.exec(text)?.[1] ?? 0);
    };
    const { tokens, players } = await finishedFriendGame();
    const before = await started();
    // What two racing acceptances do once the rematch's id is stored (src/services/games/rematch.ts): both make its game.
    const newId = newGameId();
    const seat = (s: "A" | "B") => ({ playerId: players[s], name: s, kind: "human" as const, tokenHash: sha256Hex(tokens[s]) });
    const made = await Promise.allSettled(
      [0, 1].map(() => server.gameCreation.createMatched("classic", { A: seat("B"), B: seat("A") }, { opponent: "friend", id: newId })),
    );
    assert.deepEqual(made.map((m) => m.status).sort(), ["fulfilled", "rejected"]);
    assert.equal(await started(), before + 1);
  });

  it("over REST: a house game offers no rematch (403 problem document)", async () => {
    const g = await http(server.url, "POST", "/api/v1/games", { opponent: "house", level: "easy", name: "Cy" });
    await playOpening(server.url, g.json.game.id, [g.json.playerToken]);
    await resign(g.json.game.id, g.json.playerToken);
    const out = await http(server.url, "POST", `/api/v1/games/${g.json.game.id}/rematch`, undefined, bearer(g.json.playerToken));
    assert.equal(out.status, 403);
    assert.equal(out.json.code, "forbidden");
    assert.match(out.headers.get("content-type") ?? "", /problem\+json/);
  });
});
