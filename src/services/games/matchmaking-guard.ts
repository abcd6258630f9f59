/**
 * What a client may ask of Colyseus' matchmaking routes. Game rooms are made by the service (REST, MCP, the
 * quick-match queue) and entered by id: a client `create` would start a second actor for an existing game,
 * and a `join` by room name would seat a spectator in some game it does not know the id of, private ones
 * included. The quick-match queue is entered with `joinOrCreate("quick", { ruleset })`.
 */
import { ErrorCode, matchMaker, ServerError } from "@colyseus/core";
import { ROOM_CODES } from "../../shared/errors";
import { GAME_ROOM, QUEUE_ROOM } from "./room-access";

/** Why a client's matchmaking call is refused, or null when it may go ahead. */
export function refusalOf(method: string, roomName: string): string | null {
  if (roomName === GAME_ROOM && (method === "create" || method === "join" || method === "joinOrCreate")) {
    return `games are created over REST (POST /api/v1/games) and entered with joinById(gameId); "${method}" is not offered`;
  }
  // One room per tournament: a second, created beside it, would show the same tournament twice.
  if (roomName === "tournament" && method === "create") {
    return `a tournament is watched with joinOrCreate("tournament", { tournamentId })`;
  }
  if (roomName === QUEUE_ROOM && method === "create") {
    return `the quick-match queue is entered with joinOrCreate("quick", { ruleset })`;
  }
  return null;
}

/** Whether a `joinById` with these options may reserve a seat in the room: false for a private game's watcher. */
export type JoinAdmits = (roomId: string, options: unknown) => Promise<boolean>;

/**
 * Puts `refusalOf` in front of the matchmaking controller (once per process), and `open(roomId)` in front of
 * every `joinById`: a waiting game has no room until someone arrives (GameCreation.open), and a watcher or a
 * seat joining by the game's id is someone. `open` opens the game's room when there is such a game and none
 * is open; it settles without throwing, and Colyseus then answers the join as it would have. A join `admits`
 * refuses (a private game's watcher) is answered as a room that does not exist, so the game stays hidden.
 */
export function guardMatchmaking(open: (roomId: string) => Promise<void> = async () => undefined, admits: JoinAdmits = async () => true): void {
  const controller = matchMaker.controller as unknown as {
    invokeMethod: (method: string, roomName: string, ...rest: unknown[]) => Promise<unknown>;
    guarded?: { open: (roomId: string) => Promise<void>; admits: JoinAdmits };
  };
  if (controller.guarded) {
    // One guard per process; a server started again in the same process (tests) brings its own rooms.
    controller.guarded.open = open;
    controller.guarded.admits = admits;
    return;
  }
  const guarded = { open, admits };
  const invoke = controller.invokeMethod.bind(controller);
  controller.invokeMethod = async (method, roomName, ...rest) => {
    const refusal = refusalOf(method, roomName);
    // An HTTP status as the code: Colyseus answers a matchmaking request with the error's code as its status.
    if (refusal) throw new ServerError(ROOM_CODES.http.forbidden, refusal);
    // For joinById the "room name" is the room's id.
    if (method === "joinById") {
      if (!(await guarded.admits(roomName, rest[0]))) throw new ServerError(ErrorCode.MATCHMAKE_INVALID_ROOM_ID, `room "${roomName}" not found`);
      await guarded.open(roomName);
    }
    return invoke(method, roomName, ...rest);
  };
  controller.guarded = guarded;
}
