/**
 * What a client may ask of Colyseus' matchmaking routes. Game rooms are made by the service (REST, MCP, the
 * quick-match queue) and entered by id: a client `create` would start a second actor for an existing game,
 * and a `join` by room name would seat a spectator in some game it does not know the id of, private ones
 * included. The quick-match queue is entered with `joinOrCreate("quick", { ruleset })`.
 */
import { matchMaker, ServerError } from "@colyseus/core";
import { GAME_ROOM, QUEUE_ROOM } from "./room-access";

/** Why a client's matchmaking call is refused, or null when it may go ahead. */
export function refusalOf(method: string, roomName: string): string | null {
  if (roomName === GAME_ROOM && (method === "create" || method === "join" || method === "joinOrCreate")) {
    return `games are created over REST (POST /api/v1/games) and entered with joinById(gameId); "${method}" is not offered`;
  }
  if (roomName === QUEUE_ROOM && method === "create") {
    return `the quick-match queue is entered with joinOrCreate("quick", { ruleset })`;
  }
  return null;
}

/** Puts `refusalOf` in front of the matchmaking controller (once per process). */
export function guardMatchmaking(): void {
  const controller = matchMaker.controller as unknown as {
    invokeMethod: (method: string, roomName: string, ...rest: unknown[]) => Promise<unknown>;
    guarded?: boolean;
  };
  if (controller.guarded) return;
  const invoke = controller.invokeMethod.bind(controller);
  controller.invokeMethod = async (method, roomName, ...rest) => {
    const refusal = refusalOf(method, roomName);
    // An HTTP status as the code: Colyseus answers a matchmaking request with the error's code as its status.
    if (refusal) throw new ServerError(403, refusal);
    return invoke(method, roomName, ...rest);
  };
  controller.guarded = true;
}
