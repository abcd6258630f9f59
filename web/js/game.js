// The play and watch pages: joins the game room over WebSocket (as the seat when this browser holds its
// token, otherwise as a spectator), draws every state patch, sends moves and shows refusals. A game whose
// room is gone (finished and released) is drawn from its REST record instead.
import { $, api, ApiError, forgetSeat, loadSeat, saveSeat } from "./api.js";
import { fromRecord, fromRoomState } from "./model.js";
import { createView } from "./view.js";
import { playSounds, reportChallenge } from "./effects.js";

const [, mode, rawId] = location.pathname.split("/");
const gameId = decodeURIComponent(rawId || "");
let seat = mode === "play" ? loadSeat(gameId) : null;
const ctx = { mySeat: seat?.seat ?? null, selected: null, gameId, pending: false };
let room = null;
let model = null;

const view = createView({ onSquare, onCard });
document.title = `${mode === "play" ? "Play" : "Watch"} · Tile Arena`;
$("#title").textContent = mode === "play" && seat ? `Game ${gameId}` : `Watching game ${gameId}`;
if (mode === "play" && !seat) notice("This browser holds no seat in this game, so you are watching it.");

function notice(text) {
  $("#notice").textContent = text;
  $("#notice").hidden = false;
}

function say(text) {
  $("#refusal").textContent = text;
}

function draw(next) {
  const before = model;
  model = next;
  if (ctx.selected && !model.hand?.some((c) => c.id === ctx.selected)) ctx.selected = null;
  view.update(model, ctx);
  tick();
  $("#seat-actions").hidden = !ctx.mySeat || model.status !== "active";
  playSounds(before, model, ctx.mySeat);
  if (model.status === "finished" && before?.status !== "finished") {
    $("#end-title").focus();
    if (seat?.challenge) reportChallenge(gameId, seat, model).then(() => saveSeat(gameId, seat));
  }
}

function onCard(id) {
  if (!model || !ctx.mySeat) return;
  ctx.selected = ctx.selected === id ? null : id;
  say("");
  view.update(model, ctx);
}

function onSquare(square) {
  if (!model || !room) return;
  if (!ctx.mySeat) return say("You are watching this game.");
  if (model.status !== "active") return say(model.status === "waiting" ? "The game has not started yet." : "The game is over.");
  if (model.turn !== ctx.mySeat) return say("It is not your turn yet.");
  if (model.board.has(square)) return say(`${square} is taken; choose an empty square.`);
  if (!ctx.selected) return say("Choose a card from your hand first.");
  if (ctx.pending) return;
  // The server decides; until it answers with a patch or a refusal, further clicks are ignored.
  ctx.pending = true;
  say("");
  room.send("move", { card: ctx.selected, square });
  ctx.selected = null;
  view.update(model, ctx);
}

/** First paint and finished games come from the REST record; a live game then joins its room. */
async function start(delayMs = 0) {
  if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
  const status = await showRecord();
  if (status && status !== "finished") connect();
}

async function connect() {
  const client = new Colyseus.Client(location.origin);
  try {
    room = await client.joinById(gameId, seat ? { playerToken: seat.token } : {});
  } catch (e) {
    if (seat && e?.code === 4401) {
      // A token the game does not know (another server's, or an old game): watch instead.
      forgetSeat(gameId);
      seat = null;
      ctx.mySeat = null;
      notice("The seat saved in this browser is not valid for this game, so you are watching it.");
      return connect();
    }
    // The room can be gone because the game just ended; the record says which.
    $("#connection").textContent = "Live updates are unavailable; retrying…";
    return start(3000);
  }
  $("#connection").textContent = seat ? `Connected as seat ${seat.seat}.` : "Watching live.";
  room.onStateChange((state) => {
    if (ctx.pending && model && state.moveCount !== model.moveCount) ctx.pending = false;
    draw(fromRoomState(state, ctx.mySeat));
  });
  room.onMessage("refused", (m) => {
    ctx.pending = false;
    say(`Refused (${m.code}): ${m.detail}`);
    if (model) view.update(model, ctx);
  });
  room.onMessage("moved", () => undefined);
  room.onLeave((code) => {
    room = null;
    if (model?.status === "finished") $("#connection").textContent = "The game is over.";
    else {
      // 4012: the game moved to another server process (its own was lost); join it again by id at once.
      $("#connection").textContent = code === 4012 ? "The game moved to another server; rejoining…" : "Connection lost; reconnecting…";
      start(code === 4012 ? 0 : 2000);
    }
  });
}

/** Draws the game's REST record and answers its status (null when it could not be read). */
async function showRecord() {
  try {
    const [{ body: record }, index] = await Promise.all([api("GET", `/games/${encodeURIComponent(gameId)}`), cardIndex()]);
    const champions = new Map(index.champions.map((c) => [c.card, c.id]));
    // A live room's state is fresher than the record (which also lacks the hand): keep drawing that.
    if (!room) draw(fromRecord(record, champions));
    if (record.status === "finished") $("#connection").textContent = "The game is over.";
    return record.status;
  } catch (e) {
    $("#connection").textContent = "";
    notice(e instanceof ApiError && e.code === "not_found" ? "There is no game with this id." : `Could not load the game: ${e.message}`);
    if (!(e instanceof ApiError && e.code === "not_found")) start(5000);
    return null;
  }
}

let index = null;
const cardIndex = () => (index ??= fetch("/assets/cards/index.json").then((r) => r.json()));

// ---- resigning takes two clicks, so a stray tap cannot end the game ----------------------------------
const resignButtons = (confirming) => {
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
  room?.send("resign");
});

// ---- the turn clock counts down locally from the deadline the server published ----------------------
function tick() {
  const clock = $("#clock");
  if (!model || model.status !== "active" || !model.turnDeadline) return void (clock.textContent = "");
  const left = Math.max(0, Math.round((model.turnDeadline - Date.now()) / 1000));
  clock.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")} left`;
  clock.classList.toggle("low", left <= 15);
}
setInterval(tick, 500);

start();
