/**
 * The NDJSON streams on a real server: a bot's event stream (gameStart, yourTurn, gameFinish, challenge)
 * delivers every event of a game played through the per-game stream, resumes after a dropped connection with
 * Last-Event-ID and nothing lost, is bounded per key, and idle streams hold nothing but their heartbeats.
 */
import { strict as assert } from "node:assert";
import type { RunningServer } from "../../src/server";
import { bearer, bootServer, eventually, http } from "../support/server";
import { openStream } from "../support/ndjson";

describe("Integration: bot and game streams", function () {
  this.timeout(60_000);
  let server: RunningServer;
  before(async () => (server = await bootServer({ streamHeartbeatS: 1 })));
  after(async () => server?.close());

  const register = async (name: string) => (await http(server.url, "POST", "/api/v1/bots", { name })).json as { key: string; bot: { id: string } };

  it("delivers every event of a game played through the game stream, and resumes after a drop with nothing lost", async () => {
    const { key } = await register("Streamer");
    const events = await openStream(`${server.url}/api/v1/stream/events`, bearer(key));
    assert.equal(events.res.headers.get("content-type"), "application/x-ndjson; charset=utf-8");
    const created = await http(server.url, "POST", "/api/v1/games", { opponent: "house", level: "easy" }, bearer(key));
    const gameId = created.json.game.id as string;
    await eventually(() => events.lines.some((e) => e.type === "gameStart" && e.gameId === gameId), "gameStart");
    // Dropped after the start; the rest of the game is played while no event stream is open.
    events.close();
    const firstSeen = events.lines.at(-1).id as string;

    const game = await openStream(`${server.url}/api/v1/stream/games/${gameId}`, bearer(created.json.playerToken));
    assert.equal(game.res.status, 200);
    let moved = 0;
    let handled = 0;
    await eventually(
      () => {
        while (handled < game.lines.length) {
          const s = game.lines[handled++];
          if (s.yourTurn) {
            assert.ok(s.legalMoves.length > 0);
            moved++;
            void http(server.url, "POST", `/api/v1/games/${gameId}/moves`, { move: s.legalMoves[0].move }, bearer(created.json.playerToken));
          }
        }
        return game.lines.at(-1)?.status === "finished";
      },
      "the game to finish through its stream",
      30_000,
    );
    const final = game.lines.at(-1);
    assert.ok(["win", "loss", "draw"].includes(final.result));
    await eventually(() => game.done(), "the game stream to end with the game");

    const resumed = await openStream(`${server.url}/api/v1/stream/events`, { ...bearer(key), "last-event-id": firstSeen });
    await eventually(() => resumed.lines.some((e) => e.type === "gameFinish"), "gameFinish after resuming");
    // Turns read before the drop and after it: together one per move, none twice.
    const turns = [...events.lines, ...resumed.lines].filter((e) => e.type === "yourTurn" && e.gameId === gameId);
    assert.equal(turns.length, moved, "one yourTurn per move the bot made, none lost across the drop");
    assert.ok(!resumed.lines.some((e) => e.id === firstSeen), "nothing before Last-Event-ID again");
    const finish = resumed.lines.find((e) => e.type === "gameFinish");
    assert.equal(finish.result, final.result);
    const all = await openStream(`${server.url}/api/v1/stream/events`, bearer(key));
    await eventually(() => all.lines.some((e) => e.type === "gameFinish"), "the whole buffer");
    assert.deepEqual(
      all.lines.map((e) => e.id),
      [...events.lines, ...resumed.lines].map((e) => e.id),
    );
    resumed.close();
    all.close();
  });

  it("tells a challenged bot of the challenge, and both bots of the game once it joins with the code", async () => {
    const one = await register("Challenger");
    const two = await register("Challenged");
    const s1 = await openStream(`${server.url}/api/v1/stream/events`, bearer(one.key));
    const s2 = await openStream(`${server.url}/api/v1/stream/events`, bearer(two.key));
    const ch = await http(server.url, "POST", `/api/v1/bots/${two.bot.id}/challenge`, { ruleset: "mutators" }, bearer(one.key));
    assert.equal(ch.status, 201, ch.text);
    await eventually(() => s2.lines.some((e) => e.type === "challenge"), "the challenge");
    const challenge = s2.lines.find((e) => e.type === "challenge");
    assert.deepEqual([challenge.from.id, challenge.gameId, challenge.ruleset], [one.bot.id, ch.json.game.id, "mutators"]);
    const joined = await http(server.url, "POST", "/api/v1/games/join", { code: challenge.code }, bearer(two.key));
    assert.equal(joined.status, 200, joined.text);
    await eventually(() => [s1, s2].every((s) => s.lines.some((e) => e.type === "gameStart" && e.gameId === ch.json.game.id)), "gameStart on both streams");
    const mover = [s1, s2].find((s) => s.lines.some((e) => e.type === "yourTurn"));
    assert.ok(mover, "the first mover is told it is its turn");
    assert.equal((await http(server.url, "POST", `/api/v1/bots/${one.bot.id}/challenge`, {}, bearer(one.key))).status, 400);
    s1.close();
    s2.close();
  });

  it("keeps a game's events for a resumed stream however many challenges other bots send meanwhile", async () => {
    const [victim, a1, a2, friend] = await Promise.all(["Victim", "Flooder 1", "Flooder 2", "Friend"].map((n) => register(n)));
    const first = await openStream(`${server.url}/api/v1/stream/events`, bearer(victim.key));
    assert.equal((await http(server.url, "POST", `/api/v1/bots/${victim.bot.id}/challenge`, {}, bearer(a1.key))).status, 201);
    await eventually(() => first.lines.length === 1, "a first challenge");
    const lastSeen = first.lines[0].id as string;
    first.close();
    await eventually(() => first.done(), "the stream to drop");

    // While the victim is away, a game of its own begins, then two bots send it 210 challenges.
    const created = await http(server.url, "POST", "/api/v1/games", { opponent: "friend" }, bearer(victim.key));
    assert.equal(created.status, 201, created.text);
    const gameId = created.json.game.id as string;
    const friendStream = await openStream(`${server.url}/api/v1/stream/events`, bearer(friend.key));
    assert.equal((await http(server.url, "POST", "/api/v1/games/join", { code: created.json.code }, bearer(friend.key))).status, 200);
    // Both seats' gameStart are made by one read of the game: the friend's means the victim's is kept too.
    await eventually(() => friendStream.lines.some((e) => e.type === "gameStart" && e.gameId === gameId), "the game to begin");
    friendStream.close();
    const sent: Record<string, string[]> = { [a1.bot.id]: [], [a2.bot.id]: [] };
    for (let i = 0; i < 105; i++) {
      for (const a of [a1, a2]) {
        const ch = await http(server.url, "POST", `/api/v1/bots/${victim.bot.id}/challenge`, {}, bearer(a.key));
        assert.equal(ch.status, 201, ch.text);
        sent[a.bot.id].push(ch.json.game.id);
      }
    }

    const resumed = await openStream(`${server.url}/api/v1/stream/events`, { ...bearer(victim.key), "last-event-id": lastSeen });
    const lastOf = (id: string) => `${sent[id].at(-1)}/0/challenge`;
    await eventually(() => [a1, a2].every((a) => resumed.lines.some((e) => e.id === lastOf(a.bot.id))), "each flooder's latest challenge");
    assert.ok(
      resumed.lines.some((e) => e.type === "gameStart" && e.gameId === gameId),
      `the game's start is kept (resumed with ${resumed.lines.length} events, none its gameStart)`,
    );
    assert.ok(!resumed.lines.some((e) => e.id === lastSeen), "nothing up to Last-Event-ID again");
    const challenges = resumed.lines.filter((e) => e.type === "challenge");
    for (const a of [a1, a2]) {
      const theirs = challenges.filter((e) => e.from.id === a.bot.id).map((e) => e.gameId);
      assert.deepEqual(theirs, sent[a.bot.id].slice(-theirs.length), "a sender's latest challenges, in order");
      assert.ok(theirs.length >= 1 && theirs.length <= 5, `challenges kept from one sender: ${theirs.length}`);
    }
    resumed.close();
  });

  it("ends a revoked key's streams at once, with no event after, and refuses it a new one", async () => {
    const [gone, other] = await Promise.all(["Revoked", "Opponent"].map((n) => register(n)));
    const [s1, s2] = await Promise.all([1, 2].map(() => openStream(`${server.url}/api/v1/stream/events`, bearer(gone.key))));
    const otherStream = await openStream(`${server.url}/api/v1/stream/events`, bearer(other.key));
    // Two seats of the bot that would begin only after the revocation, which withdraws both: a friend game and a
    // queued quick-match ticket.
    const created = await http(server.url, "POST", "/api/v1/games", { opponent: "friend" }, bearer(gone.key));
    assert.equal(created.status, 201, created.text);
    const queued = await http(server.url, "POST", "/api/v1/games/quick-match", { ruleset: "mutators" }, bearer(gone.key));
    assert.equal(queued.status, 202, queued.text);
    assert.equal((await http(server.url, "POST", `/api/v1/bots/${gone.bot.id}/challenge`, {}, bearer(other.key))).status, 201);
    await eventually(() => [s1, s2].every((s) => s.lines.some((e) => e.type === "challenge")), "the streams to be live");
    const seen = [s1.lines.length, s2.lines.length];

    assert.equal((await http(server.url, "DELETE", "/api/v1/bots/me", undefined, bearer(gone.key))).status, 200);
    assert.equal((await http(server.url, "POST", "/api/v1/games/join", { code: created.json.code }, bearer(other.key))).status, 410);
    const paired = await http(server.url, "POST", "/api/v1/games/quick-match", { ruleset: "mutators" }, bearer(other.key));
    assert.equal(paired.status, 202, paired.text);
    assert.equal((await http(server.url, "DELETE", `/api/v1/games/quick-match/${paired.json.ticket}`)).status, 200);
    await eventually(() => s1.done() && s2.done(), "the revoked key's streams to end");
    assert.deepEqual([s1.lines.length, s2.lines.length], seen, `nothing after the revocation: ${JSON.stringify(s1.lines.slice(seen[0]))}`);
    assert.equal((await openStream(`${server.url}/api/v1/stream/events`, bearer(gone.key))).res.status, 401);
    otherStream.close();
  });

  it("bounds event streams per key and refuses streams without a key or with a wrong token", async () => {
    const { key } = await register("Bounded");
    const a = await openStream(`${server.url}/api/v1/stream/events`, bearer(key));
    const b = await openStream(`${server.url}/api/v1/stream/events`, bearer(key));
    const c = await openStream(`${server.url}/api/v1/stream/events`, bearer(key));
    assert.deepEqual([a.res.status, b.res.status, c.res.status], [200, 200, 429]);
    assert.equal((await openStream(`${server.url}/api/v1/stream/events`)).res.status, 401);
    a.close();
    await eventually(() => a.done(), "the first stream to close");
    let again = await openStream(`${server.url}/api/v1/stream/events`, bearer(key));
    for (let i = 0; i < 20 && again.res.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 50));
      again = await openStream(`${server.url}/api/v1/stream/events`, bearer(key));
    }
    assert.equal(again.res.status, 200, "a closed stream frees its place");
    const game = await http(server.url, "POST", "/api/v1/games", { opponent: "house" });
    assert.equal((await openStream(`${server.url}/api/v1/stream/games/${game.json.game.id}`, bearer("pt_wrongwrongwrongwrong"))).res.status, 401);
    b.close();
    again.close();
  });

  it("holds nothing but heartbeats for idle streams: the hub does not grow while they stay open", async () => {
    const bots = await Promise.all(Array.from({ length: 10 }, (_, i) => register(`Idle ${i}`)));
    const streams = await Promise.all(bots.map((b) => openStream(`${server.url}/api/v1/stream/events`, bearer(b.key))));
    await eventually(() => streams.every((s) => s.heartbeats() >= 1), "a first heartbeat on every stream", 5000);
    const before = server.botStreams.size();
    await eventually(() => streams.every((s) => s.heartbeats() >= 3), "three heartbeats on every stream", 10_000);
    assert.deepEqual(server.botStreams.size(), before);
    assert.ok(
      streams.every((s) => s.lines.length === 0),
      "an idle stream carries only heartbeats",
    );
    streams.forEach((s) => s.close());
  });
});
