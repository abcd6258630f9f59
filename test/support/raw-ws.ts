/**
 * A WebSocket below the SDK, for the attacks the SDK would never make: a seat reservation taken over HTTP,
 * then raw frames of any protocol type.
 */
import { WebSocket } from "ws";
import { http } from "./server";

export interface Reservation {
  sessionId: string;
  roomId: string;
  processId: string;
}

/** `POST /matchmake/joinById/<gameId>` as a spectator (or a seat, with a player token). */
export async function reserveSeat(base: string, gameId: string, options: Record<string, unknown> = {}): Promise<Reservation> {
  const r = await http(base, "POST", `/matchmake/joinById/${gameId}`, options);
  if (r.status !== 200) throw new Error(`reservation refused: ${r.status} ${r.text}`);
  return { sessionId: r.json.sessionId, roomId: r.json.roomId, processId: r.json.processId };
}

export const socketUrl = (base: string, r: Reservation) => `${base.replace(/^http/, "ws")}/${r.processId}/${r.roomId}?sessionId=${r.sessionId}`;

/**
 * Opens a socket and waits for the server's first frame: JOIN_ROOM (10) once the seat is taken, or ERROR
 * (11) when the room refuses it (rejected with the frame's text).
 */
export function openJoined(url: string, headers: Record<string, string> = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once("message", (data: Buffer) => {
      if (data[0] === 10) return resolve(ws);
      ws.close();
      reject(new Error(`refused: ${data.subarray(1).toString("latin1")}`));
    });
    ws.once("error", reject);
    ws.once("close", (code) => reject(new Error(`closed ${code} before joining`)));
  });
}

/**
 * Sends `frame` in batches until the server closes the socket; resolves with the close code and the number
 * of frames sent, or rejects after `giveUpMs`.
 */
export function floodUntilClosed(ws: WebSocket, frame: Buffer, giveUpMs = 5000): Promise<{ code: number; sent: number }> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let open = true;
    const timer = setTimeout(() => reject(new Error(`still open after ${sent} frames`)), giveUpMs);
    ws.on("error", () => undefined);
    ws.once("close", (code) => {
      open = false;
      clearTimeout(timer);
      resolve({ code, sent });
    });
    const batch = () => {
      if (!open) return;
      for (let i = 0; i < 200 && ws.readyState === WebSocket.OPEN; i++, sent++) ws.send(frame);
      setImmediate(batch);
    };
    batch();
  });
}

/** Answers of `GET /healthz` (status and milliseconds) taken every 50 ms while `during` runs. */
export async function probeHealth(base: string, during: Promise<unknown>): Promise<Array<{ status: number; ms: number }>> {
  const out: Array<{ status: number; ms: number }> = [];
  let done = false;
  // Settles either way; the caller awaits `during` itself for its outcome.
  const finished = during.then(
    () => (done = true),
    () => (done = true),
  );
  while (!done) {
    const t = Date.now();
    const r = await fetch(`${base}/healthz`);
    await r.text();
    out.push({ status: r.status, ms: Date.now() - t });
    await new Promise((r) => setTimeout(r, 50));
  }
  await finished;
  return out;
}
