import { strict as assert } from "node:assert";
import { mock } from "node:test";
import { fail } from "../../src/shared/errors";
import type { Seat } from "../../src/engine";
import type { RoomAccess } from "../../src/services/games/room-access";
import type { MoveBody } from "../../src/services/games/schemas";
import { GamePlay } from "../../src/services/games/play";
import { sha256Hex } from "../../src/shared/secrets";
import type { RunningServer } from "../../src/server";
import type { GamesPort } from "../../src/store/port";
import { connect } from "../mcp/helpers";
import { actorOf, iso, nextMove, storedBy, T0 } from "./actor/actor-fixtures";
import { game } from "../store/fixtures";
import { pickMove, seatedFriendGame } from "../support/play";
import { bearer, bootServer, http } from "../support/server";

const tokens: Record<Seat, string> = { A: "pt_seat-a", B: "pt_seat-b" };

/** A live game on plain ports, and its play (GamePlay) in two processes: the one holding its room, and another. */
function liveGame() {
  const seats = {
    A: { playerId: "P1", name: "Ada", kind: "human" as const, tokenHash: sha256Hex(tokens.A) },
    B: { playerId: "P2", name: "Bo", kind: "human" as const, tokenHash: sha256Hex(tokens.B) },
  };
  const record = game("K1", { status: "active", createdAt: iso(T0), startedAt: iso(T0), turnSeconds: 0, seats });
  const { actor, ports } = actorOf(record);
  /** Every read of the store, by method: counted, so that a read that should not happen shows. */
  const reads: (keyof GamesPort)[] = [];
  const stored = storedBy(record, ports);
  const counted = new Proxy(stored, {
    get: (target, name: keyof typeof stored) => {
      reads.push(name);
      return target[name];
    },
  }) as unknown as GamesPort;
  const service = (rooms: Partial<RoomAccess>) => new GamePlay(counted, rooms as RoomAccess, undefined as never, "http://127.0.0.1:1");
  // The process holding the room calls it directly; another reaches it as a remote room, and has no room at hand.
  const here = service({ localGame: () => actor });
  const elsewhere = service({ localGame: () => undefined, game: () => actor as never });
  // A process whose call to the room's process goes unanswered (that process ending between storing a move
  // and answering it).
  const silent = new Proxy({}, { get: () => async () => fail("unavailable", "the process holding this game did not answer", { retryAfter: 1 }) });
  const unanswered = service({ localGame: () => undefined, game: () => silent as never });
  return { actor, reads: () => [...reads], here, elsewhere, unanswered };
}

/** The move the seat to move would play, with its token. */
function next(actor: ReturnType<typeof liveGame>["actor"]): { seat: Seat; token: string; body: { card: string; square: string } } {
  const { seat, move } = nextMove(actor);
  return { seat, token: tokens[seat], body: move };
}

/**
 * A move sent again after it was applied is refused by the room as a new move, and answered as the kept move
 * (GamePlay.move): from the room's own moves when the room is in this process, without reading the store;
 * from the store's log otherwise. The answer is the same either way.
 */
describe("Games: a kept move sent again is answered from the live room, the store only without one", function () {
  beforeEach(() => mock.timers.enable({ apis: ["setTimeout", "Date"], now: T0 }));
  afterEach(() => mock.timers.reset());

  it("answers the same move sent again as that move, reading no store while the room is live", async function () {
    const { actor, reads, here, elsewhere } = liveGame();
    const t = next(actor);
    const first = await here.move("K1", t.token, t.body);
    assert.equal(first.move.n, 1);
    assert.deepEqual(reads(), [], "an accepted move reads nothing");

    const again = await here.move("K1", t.token, { card: t.body.card.toLowerCase(), square: t.body.square });
    assert.deepEqual(again, first);
    assert.deepEqual(reads(), [], "the live room answered the retry: no store read");

    const fromStore = await elsewhere.move("K1", t.token, { move: `${t.body.card}@${t.body.square}` });
    assert.deepEqual(fromStore, first, "the store's answer is the live room's");
    assert.ok(reads().includes("listActions"), "without the room at hand, the store's log is replayed");
    assert.equal(actor.ctx.engine!.moves.length, 1, "no retry was applied");
  });

  it("answers a retry after the opponent moved with the kept move and the view now, the same from either", async function () {
    const { actor, reads, here, elsewhere } = liveGame();
    const t = next(actor);
    const first = await here.move("K1", t.token, t.body);
    const o = next(actor);
    await here.move("K1", o.token, o.body);
    const again = await here.move("K1", t.token, t.body);
    assert.deepEqual(again.move, first.move);
    assert.equal(again.view.turn, t.seat, "the view now: the seat's turn again");
    assert.deepEqual(reads(), []);
    assert.deepEqual(await elsewhere.move("K1", t.token, t.body), again);
  });

  it("answers a retry of the finishing move as that move, finished, the same from either", async function () {
    const { actor, reads, here, elsewhere } = liveGame();
    let last = next(actor);
    let finishing = await here.move("K1", last.token, last.body);
    while (finishing.status === "active") {
      last = next(actor);
      finishing = await here.move("K1", last.token, last.body);
    }
    assert.equal(finishing.status, "finished");
    assert.equal(finishing.move.n, 16, "the board's last square");
    const again = await here.move("K1", last.token, last.body);
    assert.deepEqual(again, finishing);
    assert.deepEqual(reads(), []);
    assert.deepEqual(await elsewhere.move("K1", last.token, last.body), finishing);
  });

  it("still refuses what is not the kept move, in either process", async function () {
    const { actor, reads, here, elsewhere } = liveGame();
    const t = next(actor);
    await here.move("K1", t.token, t.body);
    const other: Seat = t.seat === "A" ? "B" : "A";
    const elsewhereSquare = { card: t.body.card, square: t.body.square === "a1" ? "d4" : "a1" };
    const refusals = async (games: GamePlay) => {
      const codes: string[] = [];
      for (const [token, body] of [
        [t.token, elsewhereSquare],
        [t.token, { move: `${t.body.card}@${t.body.square}x3` }],
        [tokens[other], t.body],
        ["pt_" + "x".repeat(43), t.body],
      ] as const) {
        await games.move("K1", token, body as MoveBody).then(
          () => codes.push("answered"),
          (e: { code?: string }) => codes.push(String(e.code)),
        );
      }
      return codes;
    };
    const live = await refusals(here);
    assert.deepEqual(live, ["not_your_turn", "not_your_turn", "illegal_move", "unauthorized"]);
    assert.deepEqual(reads(), []);
    assert.deepEqual(await refusals(elsewhere), live);
    assert.equal(actor.ctx.engine!.moves.length, 1);
  });

  it("answers a kept move whose room did not answer from the store, and refuses as unavailable one never made", async function () {
    const { actor, here, unanswered } = liveGame();
    const t = next(actor);
    const first = await here.move("K1", t.token, t.body);
    assert.deepEqual(await unanswered.move("K1", t.token, { card: t.body.card.toLowerCase(), square: t.body.square }), first);
    assert.deepEqual(await unanswered.move("K1", t.token, { move: `${t.body.card}@${t.body.square}` }), first);
    const o = next(actor);
    const refused = (e: { code?: string }) => e.code === "unavailable";
    // The other seat's move, never made; and the same card sent by the wrong seat, which is not this move.
    await assert.rejects(unanswered.move("K1", o.token, o.body), refused);
    await assert.rejects(unanswered.move("K1", o.token, t.body), refused);
  });
});

/**
 * A client that sends a move again after it was applied (its connection dropped before the answer, or it
 * retried across a restart) reaches a live room, which refuses it as a new move: the facade answers it as the
 * kept move instead, over REST and MCP. Which retries are that move, and the answer without a live room (from
 * the store), are tested without a server above.
 */
describe("Games: a move sent again after it was applied is answered as that move", function () {
  this.timeout(30_000);
  let server: RunningServer;
  before(async () => {
    server = await bootServer();
  });
  after(async () => server.close());

  const friendGame = () => seatedFriendGame(server.url);
  /** The seat to move, its token and its view. */
  async function turn(id: string, tokens: Record<string, string>) {
    const seat = (await http(server.url, "GET", `/api/v1/games/${id}`)).json.turn as string;
    const view = (await http(server.url, "GET", `/api/v1/games/${id}/sync`, undefined, bearer(tokens[seat]))).json;
    return { seat, token: tokens[seat], view };
  }
  const move = (id: string, body: object, token: string) => http(server.url, "POST", `/api/v1/games/${id}/moves`, body, bearer(token));
  const moveCount = async (id: string) => (await http(server.url, "GET", `/api/v1/games/${id}`)).json.moveCount as number;

  it("answers the same move sent twice with 200 both times, the same move, and one stored action", async () => {
    const { id, tokens } = await friendGame();
    const t = await turn(id, tokens);
    const body = pickMove(t.view.state);
    const first = await move(id, body, t.token);
    assert.equal(first.status, 200, first.text);
    const again = await move(id, body, t.token);
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.json.move, first.json.move);
    assert.deepEqual(again.json.view, first.json.view);
    assert.equal(again.json.status, "active");
    // In the other notation too; the retries stored nothing.
    const notation = await move(id, { move: `${body.card}@${body.square}` }, t.token);
    assert.equal(notation.status, 200, notation.text);
    assert.equal(notation.json.move.n, 1);
    assert.equal(await moveCount(id), 1);
    assert.equal((await server.store.games.listActions(id)).length, 1);
  });

  it("answers the same move sent again over MCP (the move tool) as that move", async () => {
    const { id, tokens } = await friendGame();
    const t = await turn(id, tokens);
    const body = pickMove(t.view.state);
    const mcp = await connect(server.url);
    try {
      const args = { game_id: id, player_token: t.token, move: `${body.card}@${body.square}` };
      const first = await mcp.ok("move", args);
      const again = await mcp.ok("move", args);
      assert.deepEqual(again.move, first.move);
      assert.equal(await moveCount(id), 1);
      const elsewhere = await mcp.raw("move", { ...args, move: `${body.card}@${body.square === "a1" ? "d4" : "a1"}` });
      assert.equal(elsewhere.isError, true);
      assert.equal(elsewhere.structuredContent?.code, "not_your_turn");
    } finally {
      await mcp.close();
    }
  });
});
