/**
 * Playing games: a seat's move, its resignation, and its rematch offered, accepted or declined, asked of the
 * game's room wherever it lives (RoomAccess). A move whose answer was lost is answered as the move kept
 * (keptMove); a rematch is stored state shared with the rooms (Rematches, rematch.ts).
 */
import { fail, unwrap, type ErrorCode, type Outcome } from "../../shared/errors";
import type { GamesPort } from "../../store/port";
import { rebuildContext } from "./context";
import { keptMoveIn } from "./kept-move";
import { noSuchGame, seatOfToken } from "./record";
import type { Ask } from "./reads";
import type { Rematches } from "./rematch";
import type { RoomAccess } from "./room-access";
import type { MoveBody } from "./schemas";
import { sha256Hex } from "../../shared/secrets";
import { linksFor, type MoveAnswer } from "./views";
import { traced } from "../../shared/tracing";

/**
 * How long a move waits for a room in another process: longer than a read (reads.ts), since a live room stores
 * the move before it answers.
 */
const MOVE_TIMEOUT_MS = 3000;

/**
 * The refusals of a move that may hide the same move, already kept, whose answer was lost: on these only is it
 * looked for (keptMove: the live room, or the store). `unavailable`: the room's process died, or stalled,
 * between storing the move and answering. The others answer a retry (a client whose connection dropped before
 * the answer, or one retrying across a restart) that reaches a live room after the move was applied:
 * `not_your_turn`, the opponent's turn now; `illegal_move`, the card no longer in the hand (the seat's turn
 * again); `game_over`, the move ended the game. Any other refusal (a wrong token, a malformed move) cannot
 * hide a kept move.
 */
const MAY_HIDE_KEPT_MOVE: ReadonlySet<ErrorCode> = new Set<ErrorCode>(["unavailable", "not_your_turn", "illegal_move", "game_over"]);

export class GamePlay {
  constructor(
    private readonly store: Pick<GamesPort, "getGame" | "listActions">,
    private readonly rooms: RoomAccess,
    /** Rematches of finished games, shared with their rooms (RoomDeps.rematches). */
    private readonly rematches: Pick<Rematches, "offer" | "decline">,
    private readonly baseUrl: string,
  ) {}

  async move(gameId: string, token: string, body: MoveBody): Promise<MoveAnswer> {
    const tokenHash = sha256Hex(token);
    return traced("games.move", { "game.id": gameId }, async (): Promise<MoveAnswer> => {
      const out = await this.live(gameId, (room) => room.move(tokenHash, body));
      // A success is answered as is, without a store read; a refusal that may be a retry of a kept move is
      // answered as that move when the store has it.
      if (!out.ok && MAY_HIDE_KEPT_MOVE.has(out.code)) return (await this.keptMove(gameId, tokenHash, body, out.code === "unavailable")) ?? unwrap(out);
      return unwrap(out);
    });
  }

  /**
   * The answer to a move already kept, when its first answer was lost: its room stopped answering while it
   * was under way (the room stores a move before it answers, so a process that dies between the two leaves a
   * kept move without its answer), or the client sent it again (MAY_HIDE_KEPT_MOVE). The answer is the kept
   * move and the seat's view now, as the room answers a move (src/services/games/kept-move.ts). A room in this process
   * answers it from its own moves; otherwise the game is rebuilt from the store. After an `unavailable`
   * refusal the room here may have just lost the game to another process, which may have kept the move: then
   * the store is read when the room here does not hold it. Null when it is not (yet) there, or is another
   * square's, another seat's, or says other captures than it made.
   */
  private async keptMove(gameId: string, tokenHash: string, body: MoveBody, mayHaveMoved: boolean): Promise<MoveAnswer | null> {
    try {
      const local = this.rooms.localGame(gameId);
      if (local) {
        const kept = await local.keptMove(tokenHash, body);
        if (kept || !mayHaveMoved) return kept;
      }
      const game = await this.store.getGame(gameId);
      if (!game || !seatOfToken(game, tokenHash)) return null;
      return keptMoveIn(rebuildContext(game, await this.store.listActions(gameId)), tokenHash, body);
    } catch {
      // The store (or the room) failing too: the refusal already in hand is the answer.
      return null;
    }
  }

  async resign(gameId: string, token: string) {
    const tokenHash = sha256Hex(token);
    return unwrap(await this.live(gameId, (room) => room.resign(tokenHash)));
  }

  /**
   * A seat offers a rematch of its finished game, or accepts the other seat's offer; once started, the answer
   * carries this seat's new game id, seat and token: the seat's own, which plays the rematch (src/services/games/rematch.ts).
   */
  async rematch(gameId: string, token: string) {
    const out = unwrap(await this.rematches.offer(gameId, sha256Hex(token)));
    const { started, ...view } = out;
    return {
      rematch: view,
      ...(started ? { game: { id: started.gameId, seat: started.seat, playerToken: token, urls: linksFor(this.baseUrl, started.gameId) } } : {}),
    };
  }

  /** A seat declines the offered rematch (or takes back its own offer). */
  async declineRematch(gameId: string, token: string) {
    return { rematch: unwrap(await this.rematches.decline(gameId, sha256Hex(token))) };
  }

  private async live<T>(gameId: string, ask: Ask<T>): Promise<Outcome<T>> {
    const local = this.rooms.localGame(gameId);
    if (local) return ask(local);
    const game = await this.store.getGame(gameId);
    if (!game) throw noSuchGame(gameId);
    // A refusal, not a throw: a move refused so may be the game's last, retried (MAY_HIDE_KEPT_MOVE).
    if (game.status === "finished") return fail("game_over", "the game has finished");
    return ask(this.rooms.game(gameId, MOVE_TIMEOUT_MS));
  }
}
