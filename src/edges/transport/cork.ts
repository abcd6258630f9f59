/**
 * Frames sent to one client in one turn of the event loop leave in one write. A move's mover gets the
 * state patch and then its `moved` acknowledgement, and `ws` writes each frame to the socket at once: two
 * system calls where one would do. Corking the client's TCP socket while the room announces a change, and
 * uncorking it once the turn's promise continuations have run (the acknowledgement is sent in one of them),
 * hands both frames to the kernel in a single writev.
 */
import type { Socket } from "node:net";

/** Colyseus' WebSocket client keeps the `ws` socket as `ref`, and `ws` keeps the TCP socket as `_socket`. */
interface WithSocket {
  ref?: { _socket?: Socket };
}

const corked = new Set<Socket>();

function uncorkAll(): void {
  for (const socket of corked) socket.uncork();
  corked.clear();
}

/**
 * Corks each client's socket until the current turn's ticks and promise continuations have run. A
 * `process.nextTick` queued from a promise continuation runs after every continuation already queued or
 * queued meanwhile, so whatever the room sends in reply to the same event joins the write.
 */
export function corkForThisTurn(clients: Iterable<unknown>): void {
  for (const client of clients) {
    const socket = (client as WithSocket).ref?._socket;
    if (!socket || socket.destroyed || corked.has(socket)) continue;
    if (corked.size === 0) process.nextTick(uncorkAll);
    socket.cork();
    corked.add(socket);
  }
}
