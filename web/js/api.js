// Shared helpers of every page: REST calls, the seats and profile this browser holds, small DOM helpers.
// Everything is built with textContent (never innerHTML), since names and details come from other people.

export const API = "/api/v1";

export class ApiError extends Error {
  constructor(status, problem) {
    super(problem?.detail || problem?.title || `request failed (${status})`);
    this.status = status;
    this.code = problem?.code || "error";
  }
}

export async function api(method, path, body) {
  const res = await fetch(API + path, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(res.status, json);
  return { status: res.status, body: json };
}

// ---- what this browser remembers ------------------------------------------------------------------
// A seat's token is kept per game in localStorage, so a reload or a new tab keeps playing the seat.
const seatKey = (gameId) => `arena.seat.${gameId}`;

export function saveSeat(gameId, seat) {
  localStorage.setItem(seatKey(gameId), JSON.stringify(seat));
}

export function loadSeat(gameId) {
  try {
    const s = JSON.parse(localStorage.getItem(seatKey(gameId)) || "null");
    return s && typeof s.token === "string" ? s : null;
  } catch {
    return null;
  }
}

export function forgetSeat(gameId) {
  localStorage.removeItem(seatKey(gameId));
}

// The guest profile's secret is returned once; keeping it lets the next game count for the same rating.
export function savePlayer(player) {
  if (player?.id && player?.secret) localStorage.setItem("arena.player", JSON.stringify({ id: player.id, secret: player.secret, name: player.name }));
}

export function storedPlayer() {
  try {
    return JSON.parse(localStorage.getItem("arena.player") || "null");
  } catch {
    return null;
  }
}

/**
 * POSTs a body that seats this browser, as its stored profile when there is one. A profile the server
 * no longer knows is forgotten and the request is repeated as a new guest.
 */
export async function seatRequest(path, body) {
  const p = storedPlayer();
  const withPlayer = p ? { ...body, player: { id: p.id, secret: p.secret } } : body;
  try {
    return await api("POST", path, withPlayer);
  } catch (e) {
    // Only the profile check answers `unauthorized` on these routes (codes and tokens answer otherwise).
    if (!p || !(e instanceof ApiError) || e.code !== "unauthorized") throw e;
    localStorage.removeItem("arena.player");
    return api("POST", path, body);
  }
}

/** Remembers the seat (and profile) of a create/join/accept answer and opens its play page. */
export function takeSeat(out, extra = {}) {
  savePlayer(out.player);
  saveSeat(out.game.id, { token: out.playerToken, seat: out.seat, ...extra });
  return `/play/${encodeURIComponent(out.game.id)}`;
}

export function lastName() {
  return storedPlayer()?.name || "";
}

// ---- DOM ------------------------------------------------------------------------------------------
export const $ = (sel, root = document) => root.querySelector(sel);

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

/** Runs an async form action with its button disabled and its error shown next to it. */
export function action(button, out, fn) {
  button.addEventListener("click", async (ev) => {
    ev.preventDefault();
    button.disabled = true;
    out.textContent = "";
    try {
      await fn();
    } catch (e) {
      out.textContent = e instanceof Error ? e.message : String(e);
    } finally {
      button.disabled = false;
    }
  });
}
