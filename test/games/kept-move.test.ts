import { strict as assert } from "node:assert";
import { LocalPresence } from "@colyseus/core";
import { fail } from "../../src/errors";
import { GameService } from "../../src/games/service";
import type { RoomAccess } from "../../src/games/room-access";
import type { RunningServer } from "../../src/server";
import { pickMove } from "../support/play";
import { bearer, bootServer, http } from "../support/server";

/**
 * A move whose room stopped answering while it was under way (its process ending between storing the move and
 * answering) must not be reported refused when it was kept: the facade looks it up in the store. Here the room
 * is a stand-in that never answers, and the store is a real server's, holding the game and its moves.
 */
describe("Games: a move whose room did not answer is answered from the store", function () {
  this.timeout(20_000);
  let server: RunningServer;
  before(async () => {
    server = await bootServer();
  });
  after(async () => server.close());

  /** The game service as a process that cannot reach the game's room sees it. */
  const unreachable = () => {
    const silent = new Proxy({}, { get: () => async () => fail("unavailable", "the process holding this game did not answer; it is being moved to a live process, retry shortly", { retryAfter: 1 }) });
    const rooms = { localGame: () => undefined, game: () => silent } as unknown as RoomAccess;
    return new GameService(server.store, rooms, undefined as never, new LocalPresence(), server.url, undefined as never);
  };

  it("answers 200 with the kept move, and refuses as unavailable a move that was not kept", async () => {
    const a = await http(server.url, "POST", "/api/v1/games", { opponent: "friend" });
    const b = await http(server.url, "POST", "/api/v1/games/join", { code: a.json.code });
    const id = a.json.game.id as string;
    const tokens: Record<string, string> = { [a.json.seat]: a.json.playerToken, [b.json.seat]: b.json.playerToken };
    const first = (await http(server.url, "GET", `/api/v1/games/${id}`)).json.turn as string;
    const view = (await http(server.url, "GET", `/api/v1/games/${id}/sync`, undefined, bearer(tokens[first]))).json;
    const body = pickMove(view.state);
    const played = await http(server.url, "POST", `/api/v1/games/${id}/moves`, body, bearer(tokens[first]));
    assert.equal(played.status, 200, played.text);

    const games = unreachable();
    // The same move, its answer lost: found in the store, in either notation, whatever the case of the card.
    const kept = await games.move(id, tokens[first], { card: body.card.toLowerCase(), square: body.square });
    assert.equal(kept.move.n, 1);
    assert.equal(kept.move.card, played.json.move.card);
    assert.deepEqual(kept.view.hand, played.json.view.hand);
    assert.equal((await games.move(id, tokens[first], { move: `${body.card}@${body.square}` })).move.n, 1);

    // The other seat's move, never made: refused, nothing claimed.
    const second = first === "A" ? "B" : "A";
    const other = (await http(server.url, "GET", `/api/v1/games/${id}/sync`, undefined, bearer(tokens[second]))).json;
    await assert.rejects(games.move(id, tokens[second], pickMove(other.state)), (e: { code?: string }) => e.code === "unavailable");
    // The same card by the wrong seat is not this move either.
    await assert.rejects(games.move(id, tokens[second], body), (e: { code?: string }) => e.code === "unavailable");
  });
});
