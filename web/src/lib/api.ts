// Shared helpers of every page: REST calls, the seats and profile this browser holds, small DOM helpers.
// Everything is built with textContent (never innerHTML), since names and details come from other people.

export const API = "/api/v1";

/** The RFC 9457 problem document every refused request answers (src/shared/errors.ts). */
interface Problem {
  code?: string;
  title?: string;
  detail?: string;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, problem: Problem | null) {
    super(problem?.detail || problem?.title || `request failed (${status})`);
    this.status = status;
    this.code = problem?.code || "error";
  }
}

/** A JSON call to the API; `signal` aborts it (a stopped quick-match search). */
export async function api<T = unknown>(
  method: string,
  path: string,
  body?: unknown,
  signal?: AbortSignal,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: T }> {
  const res = await fetch(API + path, {
    method,
    headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
  });
  const json: unknown = await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(res.status, json as Problem | null);
  return { status: res.status, body: json as T };
}

export const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

// ---- what this browser remembers ------------------------------------------------------------------
/** A seat's token is kept per game in localStorage, so a reload or a new tab keeps playing the seat. */
export interface StoredSeat {
  token: string;
  seat: "A" | "B";
  /** The agent challenge this seat accepted, and whether its result went back. */
  challenge?: string;
  reported?: boolean;
  /** A friend game's invite link, kept so the waiting page can show it again. */
  inviteUrl?: string;
  /** This browser's profile rating when the game was opened, to show the change at the end. */
  ratingBefore?: { rating: number; games: number };
  /**
   * The WebSocket seat reservation the create or join answer carried (`reserveSeat`), usable once and only
   * for a few seconds: the play page connects with it instead of another matchmaking request.
   */
  reservation?: { value: unknown; until: number };
}

/** How long a reservation is tried after its answer (the server keeps it 15 s). */
const RESERVATION_MS = 10_000;

const seatKey = (gameId: string) => `arena.seat.${gameId}`;

export function saveSeat(gameId: string, seat: StoredSeat): void {
  localStorage.setItem(seatKey(gameId), JSON.stringify(seat));
}

export function loadSeat(gameId: string): StoredSeat | null {
  try {
    const s = JSON.parse(localStorage.getItem(seatKey(gameId)) || "null") as StoredSeat | null;
    return s && typeof s.token === "string" ? s : null;
  } catch {
    return null;
  }
}

/**
 * The Authorization header of the seat this browser holds in the game, if any: sent with every read of a
 * game, since a private game is read by its two seats alone (anyone else is answered 404).
 */
export function seatHeaders(gameId: string): Record<string, string> {
  const seat = loadSeat(gameId);
  return seat ? { authorization: `Bearer ${seat.token}` } : {};
}

export function forgetSeat(gameId: string): void {
  localStorage.removeItem(seatKey(gameId));
}

interface StoredPlayer {
  id: string;
  secret: string;
  name?: string;
}

/** The guest profile's secret is returned once; keeping it lets the next game count for the same rating. */
export function savePlayer(player: Partial<StoredPlayer> | undefined): void {
  if (player?.id && player?.secret) localStorage.setItem("arena.player", JSON.stringify({ id: player.id, secret: player.secret, name: player.name }));
}

export function storedPlayer(): StoredPlayer | null {
  try {
    return JSON.parse(localStorage.getItem("arena.player") || "null") as StoredPlayer | null;
  } catch {
    return null;
  }
}

/** What create, join, quick-match and challenge-accept answer when they seat this browser. */
export interface SeatAnswer {
  game: { id: string };
  seat: "A" | "B";
  playerToken: string;
  player?: StoredPlayer;
  inviteUrl?: string;
  code?: string;
  seatReservation?: unknown;
}

/**
 * POSTs a body that seats this browser, as its stored profile when there is one. A profile the server
 * no longer knows is forgotten and the request is repeated as a new guest.
 */
export async function seatRequest<T = SeatAnswer>(path: string, body: Record<string, unknown>, signal?: AbortSignal): Promise<{ status: number; body: T }> {
  const p = storedPlayer();
  const withPlayer = p ? { ...body, player: { id: p.id, secret: p.secret } } : body;
  try {
    return await api<T>("POST", path, withPlayer, signal);
  } catch (e) {
    // Only the profile check answers `unauthorized` on these routes (codes and tokens answer otherwise).
    if (!p || !(e instanceof ApiError) || e.code !== "unauthorized") throw e;
    localStorage.removeItem("arena.player");
    return api<T>("POST", path, body, signal);
  }
}

/** Remembers the seat (and profile) of a create/join/accept answer and returns its play page. */
export function takeSeat(out: SeatAnswer, extra: Partial<StoredSeat> = {}): string {
  savePlayer(out.player);
  const reservation = out.seatReservation ? { reservation: { value: out.seatReservation, until: Date.now() + RESERVATION_MS } } : {};
  saveSeat(out.game.id, { token: out.playerToken, seat: out.seat, ...reservation, ...extra });
  return `/play/${encodeURIComponent(out.game.id)}`;
}

export function lastName(): string {
  return storedPlayer()?.name || "";
}

// ---- DOM ------------------------------------------------------------------------------------------
/** The element a page's markup is known to hold; a missing one is a bug in the page, so it throws. */
export function $<T extends HTMLElement = HTMLElement>(sel: string, root: ParentNode = document): T {
  const node = root.querySelector<T>(sel);
  if (!node) throw new Error(`missing element ${sel}`);
  return node;
}

type Attr = string | number | boolean | null | undefined | ((ev: Event) => void);

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, Attr> = {},
  ...children: Array<Node | string | null | undefined>
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (k === "class") node.className = String(v);
    else if (k === "text") node.textContent = String(v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

/**
 * A table cell that names its column (`data-label`), its content in one span: under 720 px the arena's tables
 * turn into one card per row, each cell a line of its column's name beside that span (web/css/app.css).
 */
export function labelledCell(label: string, attrs: Record<string, Attr>, ...children: Array<Node | string | null | undefined>): HTMLTableCellElement {
  return el("td", { ...attrs, "data-label": label }, el("span", {}, ...children));
}

/** Runs an async form action with its button disabled and its error shown next to it. */
export function action(button: HTMLButtonElement, out: HTMLElement, fn: () => Promise<void>): void {
  button.addEventListener("click", (ev) => {
    ev.preventDefault();
    button.disabled = true;
    out.textContent = "";
    void fn()
      .catch((e: unknown) => void (out.textContent = errorText(e)))
      .finally(() => void (button.disabled = false));
  });
}

/** "1 move", "2 moves": a count with its noun, plural unless it is one (`plural(n, "match", "matches")`). */
export function plural(n: number, noun: string, nouns = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : nouns}`;
}
