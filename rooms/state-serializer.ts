/**
 * The game rooms' state serializer: Colyseus' own, with the handshake shared by every room of the process.
 * A joining client is first sent the reflection of the state's types, which Colyseus encodes once per
 * room; every game room's state has the same types (Colyseus keeps one type context per state class, with
 * the same type ids), so the bytes are the same for all of them and are encoded once per process. That is
 * a few hundred microseconds of every game's set-up.
 */
import { SchemaSerializer, type Serializer } from "@colyseus/core";
import type { GameRoomState } from "./game-state";

let reflection: Uint8Array | undefined;

export class GameStateSerializer extends SchemaSerializer<GameRoomState> {
  override handshake(): Uint8Array {
    return (reflection ??= super.handshake());
  }
}

/** For a room's `setSerializer`: Colyseus' plain SchemaSerializer replaced by the shared-handshake one. */
export function withSharedHandshake(serializer: Serializer<GameRoomState>): Serializer<GameRoomState> {
  return serializer.constructor === SchemaSerializer ? new GameStateSerializer() : serializer;
}
