/**
 * A webhook bot plays a tournament from its events alone: it holds only its entrant token, subscribes to its
 * `tournament.paired` events, and moves in the game the event names, with that token, through the event's links.
 */
import { strict as assert } from "node:assert";
import { Webhook } from "standardwebhooks";
import { generateSecret } from "../../src/services/events";
import type { RunningServer } from "../../src/server";
import { startReceiver, testCert, type Receiver } from "../events/helpers";
import { bearer, bootServer, http } from "../support/server";

const SQUARES = ["a", "b", "c", "d"].flatMap((f) => [1, 2, 3, 4].map((r) => `${f}${r}`));

describe("Tournament pairings over webhooks", function () {
  this.timeout(60_000);
  let server: RunningServer;
  let receiver: Receiver;

  before(async () => {
    server = await bootServer({ webhookAllowPrivate: true }, { webhookCa: testCert().cert, webhookRetryDelaysMs: [50, 100] });
    receiver = await startReceiver();
  });
  after(async () => {
    await server?.close();
    await receiver?.close();
  });

  it("tells each entrant its game, seat and links; the entrant token moves in that game", async () => {
    const base = server.url;
    const t = await http(base, "POST", "/api/v1/tournaments", { name: "Webhook cup", rounds: 1 });
    const id = t.json.tournament.id as string;
    const secret = generateSecret();
    const entrants: { playerId: string; playerToken: string }[] = [];
    for (const name of ["Ann", "Ben"]) {
      const j = await http(base, "POST", `/api/v1/tournaments/${id}/join`, { name });
      assert.equal(j.status, 201, j.text);
      entrants.push(j.json);
      const sub = await http(base, "POST", "/api/v1/games/events/subscribe", {
        name: "tournament.paired",
        arguments: { tournament_id: id, player_id: j.json.playerId },
        delivery: { mode: "webhook", url: `${receiver.url}?${j.json.playerId}`, secret },
      });
      assert.equal(sub.status, 201, sub.text);
    }
    assert.equal((await http(base, "POST", `/api/v1/tournaments/${id}/start`, undefined, bearer(t.json.directorToken))).status, 200);
    await receiver.waitFor(2, 10_000);

    const wh = new Webhook(secret);
    const paired = receiver
      .events()
      .filter((e) => e.json?.name === "tournament.paired")
      .map((e) => (wh.verify(e.raw, e.headers) as any).data);
    assert.deepEqual(paired.map((d) => d.player_id).sort(), entrants.map((e) => e.playerId).sort());
    const gameId = paired[0].game_id as string;
    assert.equal(paired[1].game_id, gameId);
    assert.deepEqual(paired.map((d) => d.seat).sort(), ["A", "B"]);
    const record = (await http(base, "GET", `/api/v1/games/${gameId}`)).json;
    for (const d of paired) {
      assert.equal(d.token, "entrant");
      assert.equal(record.players[d.seat].id, d.player_id, "the event's seat is the entrant's");
      assert.equal(d.first, record.firstPlayer === d.seat);
      assert.equal(d.links.moves, `${base}/api/v1/games/${gameId}/moves`);
      for (const e of receiver.events()) assert.ok(!e.raw.includes(entrants[0].playerToken) && !e.raw.includes(entrants[1].playerToken));
    }

    // The first mover's bot, from the event and its entrant token only: its view, then a move.
    const first = paired.find((d) => d.first)!;
    const token = entrants.find((e) => e.playerId === first.player_id)!.playerToken;
    const view = await fetch(first.links.sync, { headers: bearer(token) });
    assert.equal(view.status, 200);
    const sync = await view.json();
    assert.equal(sync.yourTurn, true);
    const taken = new Set((sync.state.board as { square: string }[]).map((c) => c.square));
    const move = await fetch(first.links.moves, {
      method: "POST",
      headers: { ...bearer(token), "content-type": "application/json" },
      body: JSON.stringify({ move: `${sync.state.hand[0].id}@${SQUARES.find((q) => !taken.has(q))}` }),
    });
    assert.equal(move.status, 200, await move.clone().text());
    assert.equal((await http(base, "GET", `/api/v1/games/${gameId}`)).json.moveCount, 1);
    // The other entrant's token holds the other seat, whose turn it now is.
    const other = entrants.find((e) => e.playerId !== first.player_id)!.playerToken;
    assert.equal((await http(base, "GET", `/api/v1/games/${gameId}/sync`, undefined, bearer(other))).json.yourTurn, true);
  });
});
