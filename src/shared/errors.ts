/**
 * The one error type of the service. REST renders it as an RFC 9457 problem document, the game room sends
 * it as a `refused` message and MCP as a JSON-RPC error; the `code` is the same stable string everywhere.
 */

export const ERROR_CODES = {
  bad_request: {
    status: 400,
    title: "Bad request",
    hint: "Check the request against the API reference at /docs (the OpenAPI document is /api/v1/openapi.json).",
  },
  unauthorized: { status: 401, title: "Unauthorized", hint: "Send the seat's player token as `Authorization: Bearer pt_...`." },
  bad_signature: { status: 401, title: "Bad signature", hint: "Verify with the subscription's current secret." },
  forbidden: { status: 403, title: "Forbidden", hint: "This action is not allowed for this caller." },
  not_found: { status: 404, title: "Not found", hint: "Check the identifier; games, players and challenges are looked up by id." },
  not_your_turn: { status: 409, title: "Not your turn", hint: "Wait for your turn: poll /sync with `since` and `timeout`, or subscribe to game.turn." },
  illegal_move: { status: 422, title: "Illegal move", hint: "Play a card from your hand onto an empty square, e.g. `E7@b3`; `detail` says what was wrong." },
  game_over: { status: 409, title: "Game over", hint: "The game has finished; read its replay." },
  game_not_finished: {
    status: 409,
    title: "Game not finished",
    hint: "The replay and review exist once the game has finished (a league game: once both games of its deal have).",
  },
  already_joined: { status: 409, title: "Already joined", hint: "This seat or invite has been taken." },
  code_expired: { status: 410, title: "Code expired", hint: "Ask for a new invite or challenge." },
  conflict: { status: 409, title: "Conflict", hint: "The resource changed; read it again and retry." },
  callback_refused: { status: 422, title: "Callback refused", hint: "The callback must be public HTTPS and echo the verification challenge within 5 seconds." },
  result_mismatch: { status: 422, title: "Result mismatch", hint: "The reported result must match the service's record of the game." },
  payload_too_large: {
    status: 413,
    title: "Payload too large",
    hint: "Request bodies are limited to 64 KiB unless the operator set MAX_BODY_BYTES; `detail` names the limit.",
  },
  rate_limited: { status: 429, title: "Too many requests", hint: "Wait for the number of seconds in `Retry-After`." },
  unavailable: {
    status: 503,
    title: "Unavailable",
    hint: "The service is starting, shutting down or cannot use its store; retry shortly (after `Retry-After` seconds, when given).",
  },
  internal: { status: 500, title: "Internal error", hint: "Retry later; the error has been logged." },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The error codes a room refuses with where Colyseus carries a number rather than a problem document. */
const ROOM_REFUSALS = ["bad_request", "unauthorized", "forbidden", "not_found", "conflict", "code_expired", "rate_limited", "unavailable"] as const;
export type RoomRefusal = (typeof ROOM_REFUSALS)[number];

const numbered = (of: (code: RoomRefusal) => number) => Object.fromEntries(ROOM_REFUSALS.map((c) => [c, of(c)])) as Record<RoomRefusal, number>;

/**
 * The numbers rooms refuse and close with, from the table above where an error code maps. `http`: a refusal
 * thrown while Colyseus answers a matchmaking request (a queue's or tournament's onCreate, the matchmaking
 * guard) is sent as the HTTP status, so it is the error's own. `close`: a refusal on a room's socket (onAuth)
 * is a WebSocket close code, in the application's range, 4000 + the error's status; a game room, created by
 * the service rather than by a client's request, refuses in that form too. src/edges/api/matchmake-problems.ts
 * reads either form back.
 */
export const ROOM_CODES = {
  http: numbered((c) => ERROR_CODES[c].status),
  close: numbered((c) => 4000 + ERROR_CODES[c].status),
  /** A socket closed for breaking the protocol or sending too fast: a policy violation (WebSocket's 1008). */
  policy: 4008,
  /** A game's room closed because another process took the game over: its clients join it again there. */
  gameMoved: 4012,
} as const;

/** The room refusal an HTTP status stands for (a room's status, or its socket code less 4000), if any. */
export const roomRefusalOf = (status: number): RoomRefusal | undefined => ROOM_REFUSALS.find((c) => ERROR_CODES[c].status === status);

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    /** Extra members of the problem document (e.g. `reason` for callback_refused). */
    readonly extra: Record<string, unknown> = {},
    status?: number,
  ) {
    super(detail);
    this.name = "AppError";
    this.status = status ?? ERROR_CODES[code].status;
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;

/** A result that crosses process boundaries (remote room calls lose thrown errors). */
export type Outcome<T> = { ok: true; value: T } | { ok: false; code: ErrorCode; detail: string; extra?: Record<string, unknown> };

export const fail = (code: ErrorCode, detail: string, extra?: Record<string, unknown>): Outcome<never> => ({ ok: false, code, detail, extra });

/** Turns an Outcome back into a value or a thrown AppError. */
export function unwrap<T>(o: Outcome<T>): T {
  if (o.ok) return o.value;
  throw new AppError(o.code, o.detail, o.extra ?? {});
}
