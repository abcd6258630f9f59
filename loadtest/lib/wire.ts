/**
 * A seat on a game room over Colyseus 0.18's wire protocol, without the SDK and without decoding the
 * schema state: a raw `ws` socket and msgpack frames, as @colyseus/sdk's Room speaks them. It is what a load
 * generator needs to hold thousands of seats per thread: the SDK keeps a schema decoder, its reference tracker
 * and callbacks per room, and decodes every patch; this client skips the state frames unread and plays from
 * the room's direct messages (`hand`, `moved`), which carry everything a seat needs.
 *
 * The handshake (Client.consumeSeatReservation, Room.onMessageCallback in the SDK):
 *   1. a seat reservation (here from a REST create or join answer with `reserveSeat`) names the room and the
 *      session; the socket opens `ws://host/<processId>/<roomId>?sessionId=<sessionId>`;
 *   2. the server sends JOIN_ROOM ([10][token len][token][serializer len][serializer][handshake...]); the
 *      client acknowledges with the single byte JOIN_ROOM, and only then does the server finish the join
 *      (the full state, then any message queued for this client meanwhile);
 *   3. room messages both ways are ROOM_DATA: [13][type as a msgpack string][msgpack payload, if any].
 * The server keeps the connection alive with WebSocket pings, which `ws` answers by itself; LEAVE_ROOM from
 * the server is answered with LEAVE_ROOM, as the SDK does, and the server then closes the socket.
 */
import { Protocol } from "@colyseus/shared-types";
import { pack, unpackMultiple } from "msgpackr";
import { WebSocket } from "ws";

/** What a REST create or join answer carries with `reserveSeat` (the fields this client reads). */
export interface Reservation {
  roomId: string;
  sessionId: string;
  processId?: string;
}

/** A room message: its type and its payload (undefined when it had none). */
export type OnData = (type: string | number, payload: unknown) => void;

const JOIN_ACK = Buffer.from([Protocol.JOIN_ROOM]);
const LEAVE = Buffer.from([Protocol.LEAVE_ROOM]);
/** The longest wait for the server's JOIN_ROOM, or for its close after a leave. */
const WAIT_MS = 15_000;

export class WireSeat {
  private closed: Promise<number>;
  /** Room messages received before `listen` (a seat's first `hand` can come before its game is set up). */
  private early: Array<[string | number, unknown]> | null = [];
  private onData: OnData = (type, payload) => this.early?.push([type, payload]);
  /** Called once when the socket closes, with its close code (4000 after a consented leave). */
  onClose: (code: number) => void = () => undefined;

  private constructor(private readonly ws: WebSocket) {
    this.closed = new Promise((resolve) => ws.once("close", (code) => (resolve(code), this.onClose(code))));
  }

  /**
   * Connects a seat with its reservation and completes the join; resolves once the server's JOIN_ROOM has
   * been acknowledged. `wsBase` is the server's ws:// origin (its HTTP origin with the scheme changed).
   */
  static connect(wsBase: string, r: Reservation): Promise<WireSeat> {
    const path = r.processId ? `/${r.processId}/${r.roomId}` : `/${r.roomId}`;
    const ws = new WebSocket(`${wsBase}${path}?sessionId=${encodeURIComponent(r.sessionId)}`, { perMessageDeflate: false });
    ws.binaryType = "nodebuffer";
    const seat = new WireSeat(ws);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => fail(new Error(`no JOIN_ROOM from room ${r.roomId} within ${WAIT_MS} ms`)), WAIT_MS);
      const fail = (e: Error) => {
        clearTimeout(timer);
        ws.terminate();
        reject(e);
      };
      let joined = false;
      ws.on("error", (e) => !joined && fail(e));
      ws.once("close", (code, reason) => !joined && fail(new Error(`room ${r.roomId} closed the socket before the join (${code}: ${reason.toString()})`)));
      ws.on("message", (data: Buffer) => {
        const code = data[0];
        if (code === Protocol.JOIN_ROOM) {
          joined = true;
          clearTimeout(timer);
          ws.send(JOIN_ACK);
          resolve(seat);
        } else if (code === Protocol.ERROR) {
          // [ERROR][code as a msgpack number][message as a msgpack string]
          const [errorCode, message] = unpackMultiple(data.subarray(1)) as [number, string];
          if (!joined) fail(new Error(`room ${r.roomId} refused the join: ${errorCode} ${message}`));
        } else if (code === Protocol.ROOM_DATA) {
          // The type is a msgpack string or number (schema's encoder writes both in msgpack's format),
          // followed by the msgpack payload if there is one.
          const [type, payload] = unpackMultiple(data.subarray(1)) as [string | number, unknown];
          seat.onData(type, payload);
        } else if (code === Protocol.LEAVE_ROOM) {
          ws.send(LEAVE);
        }
        // ROOM_STATE, ROOM_STATE_PATCH and anything else: the schema state is not read.
      });
    });
  }

  /** Hands every room message to `handler`, those received since the join first. */
  listen(handler: OnData): void {
    this.onData = handler;
    const early = this.early ?? [];
    this.early = null;
    for (const [type, payload] of early) handler(type, payload);
  }

  get open(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  /** Sends a room message: ROOM_DATA, the type as a msgpack string, then the payload's msgpack bytes. */
  send(type: string, payload?: unknown): void {
    if (!this.open) return;
    const head = pack(type);
    const frame =
      payload === undefined
        ? Buffer.concat([Buffer.from([Protocol.ROOM_DATA]), head])
        : Buffer.concat([Buffer.from([Protocol.ROOM_DATA]), head, pack(payload)]);
    this.ws.send(frame);
  }

  /** A consented leave: LEAVE_ROOM, then the server's close (at most WAIT_MS; the socket is cut after it). */
  async leave(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return;
    if (this.open) this.ws.send(LEAVE);
    else this.ws.terminate();
    let timer: NodeJS.Timeout | undefined;
    const code = await Promise.race([this.closed, new Promise<number>((r) => (timer = setTimeout(() => r(-1), WAIT_MS)))]);
    clearTimeout(timer);
    if (code === -1) this.ws.terminate();
  }
}
