// The play and watch pages: joins the game room over WebSocket (as the seat when this browser holds its
// token, otherwise as a spectator), draws every state patch, sends moves and shows refusals. A game whose
// room is gone (finished and released) is drawn from its REST record instead. The connection's state is
// always on screen: offline or reconnecting pauses the board, and a move tried meanwhile is refused aloud.
import { splitNotation } from "../../../src/engine/notation";
import { $, api, ApiError, el, errorText, forgetSeat, loadSeat, saveSeat, seatHeaders } from "../lib/api";
import { explainLast, ruleContext, type Placement } from "../lib/captures";
import { GameConnection, type LinkState, type ServerMessage } from "../lib/connection";
import { playSounds, reportChallenge, setSound, soundOn } from "../lib/effects";
import { drawEnd, rematchOffer, rememberRating } from "../lib/end-panel";
import { showLogProof } from "../lib/log-badge";
import type { GameRecord } from "../lib/api-types";
import { fromRecord, fromRoomState, other, type Seat, type ViewModel } from "../lib/model";
import { markFavicon } from "../lib/turn-icon";
import { createView, type ViewContext } from "../lib/view";
import { enableTouchTips } from "../lib/touch-tips";

const [, mode, rawId] = location.pathname.split("/");
const gameId = decodeURIComponent(rawId || "");
let seat = mode === "play" ? loadSeat(gameId) : null;
const ctx: ViewContext = { mySeat: seat?.seat ?? null, selected: null, gameId, pending: false, offline: !navigator.onLine };
let model: ViewModel | null = null;
/** Notations of every move so far, oldest first: the record's list, then each new move as it arrives. */
let history: string[] = [];
const saveMySeat = () => seat && saveSeat(gameId, seat);

const view = createView({ onSquare, onCard });
if (mode === "play" && !seat) notice("This browser holds no seat in this game, so you are watching it.");

function notice(text: string): void {
  $("#notice").textContent = text;
  $("#notice").hidden = false;
}

/** No game has this id: say so, with the ways on, and draw no empty board under it. */
function unknownGame(): void {
  document.body.dataset.status = "unknown";
  document.title = "No such game · Tile Arena";
  $("#title").textContent = "No such game";
  $(".game").hidden = true;
  $("#notice").replaceChildren(
    `There is no game with the id “${gameId}”. The link may be mistyped, or the game was never created. `,
    el("a", { href: "/", text: "Start a game" }),
    " or ",
    el("a", { href: "/leaderboards", text: "find a player" }),
    ".",
  );
  $("#notice").hidden = false;
}

function say(text: string): void {
  $("#refusal").textContent = text;
}

/** Titles name the players once they are known; the tab title and icon say when it is this seat's turn. */
function drawTitle(m: ViewModel): void {
  const names = `${m.seats.A.name || "A"} vs ${m.seats.B.name || (m.status === "waiting" ? "…" : "B")}`;
  const verb = ctx.mySeat ? "Play" : "Watch";
  const yourTurn = Boolean(ctx.mySeat) && m.status === "active" && m.turn === ctx.mySeat;
  document.title = `${yourTurn ? "● Your turn · " : ""}${names} · ${verb} · Tile Arena`;
  markFavicon(yourTurn);
  $("#title").textContent = ctx.mySeat ? names : `Watching ${names}`;
}

function drawMoves(): void {
  const list = $("#move-list");
  if (list.childElementCount === history.length) return;
  list.replaceChildren(...history.map((n, i) => el("li", {}, el("span", { class: "n", text: `${i + 1}.` }), n)));
  // Scrolls the list itself, never the page (scrollIntoView would move the board on a small screen).
  const last = list.lastElementChild as HTMLElement | null;
  if (last) {
    list.scrollTop = list.scrollHeight;
    list.scrollLeft = list.scrollWidth;
  }
}

/**
 * The reasons for the latest move, worked out from the board before `notations` (the moves since, as
 * notation, the first of them with index `from`); the seats alternate from the first player.
 */
function explain(before: ViewModel["board"], from: number, notations: readonly string[], now: ViewModel): void {
  const first = now.firstPlayer === "B" ? "B" : "A";
  const moves = notations.map((n, k) => ({ ...splitNotation(n), seat: (from + k) % 2 === 0 ? first : other(first) }));
  if (moves.some((m) => !m.card || !m.square)) return;
  const reasons = explainLast(before, ruleContext(now.chessTiles, now.elements, now.mutators), moves as Placement[]);
  view.flip(reasons.map((r) => r.square));
  $("#captures").replaceChildren(
    el("span", { class: "muted", text: `${notations.at(-1)}: ` }),
    reasons.length ? el("ul", {}, ...reasons.map((r) => el("li", { text: r.text, "data-by": r.by }))) : "no capture.",
  );
}

function draw(next: ViewModel): void {
  const before = model;
  model = next;
  if (ctx.selected && !model.hand?.some((c) => c.id === ctx.selected)) ctx.selected = null;
  if (before && next.moveCount === before.moveCount + 1 && next.lastMove && history.length === before.moveCount) {
    history.push(next.lastMove);
    explain(before.board, before.moveCount, [next.lastMove], next);
  } else if (next.moveCount !== history.length) {
    // Several moves in one patch (or a gap after an outage): the record has the notations in between.
    const [board, from] = [before?.board, before?.moveCount ?? 0];
    void refreshRecord().then(() => {
      if (board && model && history.length === model.moveCount && model.moveCount > from) explain(board, from, history.slice(from), model);
    });
  }
  view.update(model, ctx);
  drawTitle(model);
  drawMoves();
  drawWaiting(model);
  tick();
  $("#seat-actions").hidden = !ctx.mySeat || model.status !== "active";
  playSounds(before, model, ctx.mySeat);
  drawConnection();
  drawEnd(model, { mySeat: ctx.mySeat, gameId, seat, record: readRecord, save: () => void saveMySeat(), send: (type) => conn.send(type) });
  if (model.status === "finished" && before?.status !== "finished") {
    $("#end-title").focus({ preventScroll: true });
    void readRecord().then(
      (record) => showLogProof($("#end-log"), gameId, record),
      () => showLogProof($("#end-log"), gameId, null),
    );
    if (seat?.challenge) void reportChallenge(gameId, seat, model).then(() => saveMySeat());
  }
}

/** The waiting page of a friend game keeps its invite link (stored with the seat) and a copy button. */
function drawWaiting(m: ViewModel): void {
  const show = m.status === "waiting" && Boolean(seat?.inviteUrl);
  $("#invite-panel").hidden = !show;
  if (show) $<HTMLInputElement>("#invite-url").value = seat!.inviteUrl!;
}
$("#copy-invite").addEventListener("click", () => {
  const input = $<HTMLInputElement>("#invite-url");
  input.select();
  void navigator.clipboard?.writeText(input.value).then(
    () => void ($("#copy-invite").textContent = "Copied"),
    () => undefined,
  );
});

function onCard(id: string): void {
  if (!model || !ctx.mySeat) return;
  ctx.selected = ctx.selected === id ? null : id;
  say("");
  view.update(model, ctx);
}

function onSquare(square: string): void {
  if (!model) return;
  if (!ctx.mySeat) return say("You are watching this game.");
  if (model.status !== "active") return say(model.status === "waiting" ? "The game has not started yet." : "The game is over.");
  if (ctx.offline || !conn.live) return say("You are offline: that move was not sent. Play it again once the connection is back.");
  if (model.turn !== ctx.mySeat) return say("It is not your turn yet.");
  if (model.board.has(square)) return say(`${square} is taken; choose an empty square.`);
  if (!ctx.selected) return say("Choose a card from your hand first.");
  if (ctx.pending) return;
  // The server decides; until it answers with a patch or a refusal, further clicks are ignored.
  if (!conn.send("move", { card: ctx.selected, square })) return say("You are offline: that move was not sent. Play it again once the connection is back.");
  ctx.pending = true;
  say("");
  ctx.selected = null;
  view.update(model, ctx);
}

// ---- keyboard: number keys choose a card of the hand, arrows move on the board (view.ts) -------------
addEventListener("keydown", (ev) => {
  if (ev.altKey || ev.ctrlKey || ev.metaKey || (ev.target as HTMLElement).closest("input, select, textarea")) return;
  const k = Number(ev.key);
  const card = model?.hand?.[k - 1];
  if (Number.isInteger(k) && card) {
    ev.preventDefault();
    onCard(card.id);
    document.querySelector<HTMLElement>(`#board .square[tabindex="0"]`)?.focus();
  }
});

// ---- the connection, told honestly ---------------------------------------------------------------
const LINK_TEXT: Record<LinkState, string> = {
  connecting: "Connecting…",
  live: "",
  dropped: "Connection lost; reconnecting… The board is paused until it is back.",
  offline: "You are offline. The board is paused until the connection is back.",
  closed: "",
};

let link: LinkState = "connecting";
/** What the connection does, and once the game is over, that it is over (for a spectator too). */
function drawConnection(state: LinkState = link): void {
  link = state;
  const over = model?.status === "finished" || state === "closed";
  $("#connection").textContent = over
    ? seat
      ? "The game is over."
      : "The game is over; you were watching it live."
    : state === "live"
      ? seat
        ? `Connected as seat ${seat.seat}.`
        : "Watching live."
      : state === "connecting"
        ? "Connecting…"
        : "Not connected.";
}

function onLink(state: LinkState): void {
  const wasOffline = ctx.offline;
  ctx.offline = state === "offline" || state === "dropped";
  const banner = $("#offline");
  banner.textContent = LINK_TEXT[state];
  banner.hidden = !ctx.offline;
  drawConnection(state);
  if (wasOffline && !ctx.offline) {
    // Back: errors from the outage are stale now, and the record may have moved on meanwhile.
    say("");
    $("#load-error").hidden = true;
    void refreshRecord();
  }
  if (state === "dropped") void refreshRecord();
  document.body.dataset.link = state;
  document.body.dataset.joins = String(conn.joins);
  if (model) view.update(model, ctx);
}

/** The seat reservation the answer that seated this browser carried: used once, while fresh, then forgotten. */
function takeReservation(): unknown {
  const r = seat?.reservation;
  if (!r || !seat) return null;
  delete seat.reservation;
  saveMySeat();
  return r.until > Date.now() ? r.value : null;
}

const conn = new GameConnection(
  gameId,
  seat?.token ?? null,
  {
    state: (s, hand) => {
      if (ctx.pending && model && s.moveCount !== model.moveCount) ctx.pending = false;
      draw(fromRoomState(s, ctx.mySeat ? hand : null));
    },
    message: (m: ServerMessage) => {
      if (m.type === "moved") return;
      if (m.type !== "refused") return rematchOffer?.onMessage(m);
      ctx.pending = false;
      say(`Refused (${m.code}): ${m.detail}`);
      if (model) view.update(model, ctx);
    },
    link: onLink,
    badToken: () => {
      // A token the game does not know (another server's, or an old game): watch instead.
      forgetSeat(gameId);
      seat = null;
      ctx.mySeat = null;
      notice("The seat saved in this browser is not valid for this game, so you are watching it.");
    },
    finished: () => model?.status === "finished",
  },
  takeReservation(),
);

// ---- the REST record: first paint, finished games, and catching up after an outage -------------------
let recordRead: Promise<GameRecord> | null = null;
function readRecord(): Promise<GameRecord> {
  recordRead ??= api<GameRecord>("GET", `/games/${encodeURIComponent(gameId)}`, undefined, undefined, seatHeaders(gameId))
    .then((r) => r.body)
    .finally(() => (recordRead = null));
  return recordRead;
}

/** Draws the game's REST record (unless a live room already draws fresher state) and answers its status. */
async function refreshRecord(): Promise<string | null> {
  try {
    const record = await readRecord();
    history = [...record.moves];
    $("#load-error").hidden = true;
    if (!conn.live || !model || record.status === "finished") {
      const next = fromRecord(record);
      // The record never holds a hand: keep showing the own one while the room is out of reach.
      if (model?.hand && next.status === "active") next.hand = model.hand;
      draw(next);
    } else drawMoves();
    if (record.status !== "finished") void conn.connect();
    return record.status;
  } catch (e) {
    if (e instanceof ApiError && e.code === "not_found") {
      unknownGame();
      return null;
    }
    setTimeout(() => void refreshRecord(), 5000);
    // While offline the banner already says why; the error would only repeat it.
    if (!navigator.onLine) return null;
    const out = $("#load-error");
    out.textContent = `Could not load the game: ${errorText(e)}. Retrying…`;
    out.hidden = false;
    return null;
  }
}

// ---- resigning takes two clicks, so a stray tap cannot end the game ----------------------------------
const resignButtons = (confirming: boolean) => {
  $("#resign").hidden = confirming;
  $("#resign-confirm").hidden = !confirming;
  $("#resign-cancel").hidden = !confirming;
};
$("#resign").addEventListener("click", () => {
  resignButtons(true);
  $("#resign-confirm").focus();
});
$("#resign-cancel").addEventListener("click", () => resignButtons(false));
$("#resign-confirm").addEventListener("click", () => {
  resignButtons(false);
  if (!conn.send("resign")) say("You are offline: the resignation was not sent.");
});

// ---- sound switch ----------------------------------------------------------------------------------
const sound = $<HTMLInputElement>("#sound");
sound.checked = soundOn();
sound.addEventListener("change", () => setSound(sound.checked));

// ---- the turn clock beside the name of the seat to move, counted down from the server's deadline ------
// (Beside the names in the side panel, and beside the score above the board for small screens.)
function tick(): void {
  for (const s of ["A", "B"] as Seat[]) {
    const running = model?.status === "active" && model.turn === s && model.turnDeadline > 0;
    const left = running && model ? Math.max(0, Math.round((model.turnDeadline - Date.now()) / 1000)) : -1;
    for (const clock of [$(`#clock-${s}`), $(`#bar-clock-${s}`)]) {
      clock.textContent = left < 0 ? "" : `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
      clock.classList.toggle("low", left >= 0 && left <= 15);
    }
  }
}
setInterval(tick, 500);

async function start(): Promise<void> {
  const status = await refreshRecord();
  // The rating before the game is only worth keeping while the game is still to be rated.
  if (seat && status && status !== "finished") void rememberRating(seat, () => void saveMySeat()).catch(() => undefined);
}
void start();
enableTouchTips();
