// The home page: start a game (house, friend invite, quick match) and list live public games to watch.
import { $, action, api, el, lastName, seatRequest, takeSeat } from "./api.js";

const nameInput = $("#name");
nameInput.value = lastName();
const name = () => nameInput.value.trim() || undefined;

action($("#play-house"), $("#house-error"), async () => {
  const { body } = await seatRequest("/games", { opponent: "house", level: $("#house-level").value, ruleset: $("#house-ruleset").value, name: name() });
  location.assign(takeSeat(body));
});

action($("#invite"), $("#friend-error"), async () => {
  const { body } = await seatRequest("/games", { opponent: "friend", ruleset: $("#friend-ruleset").value, name: name() });
  const playUrl = takeSeat(body);
  $("#invite-url").value = body.inviteUrl;
  $("#invite-play").href = playUrl;
  $("#invite-out").hidden = false;
  $("#invite-url").select();
});

$("#copy-invite").addEventListener("click", async () => {
  const url = $("#invite-url").value;
  // The clipboard API needs a secure context; selecting the text is the fallback.
  await navigator.clipboard?.writeText(url).then(() => ($("#copy-invite").textContent = "Copied"), () => $("#invite-url").select());
});

// ---- quick match: a ticket is polled with long waits until the queue pairs it ----------------------
let ticket = null;

action($("#quick"), $("#quick-error"), async () => {
  const status = $("#quick-status");
  status.textContent = "Looking for an opponent…";
  $("#quick-cancel").hidden = false;
  try {
    let out = await seatRequest("/games/quick-match", { ruleset: $("#quick-ruleset").value, name: name(), wait: 5 });
    while (out.body.status === "queued") {
      ticket = out.body.ticket;
      // A search stopped meanwhile ends quietly, whatever this last long poll answers.
      out = await api("GET", `/games/quick-match/${encodeURIComponent(ticket)}?timeout=20`).catch((e) => (ticket ? Promise.reject(e) : null));
      // Stopped, unless the pairing won the race: then the seat is real and is taken.
      if (!ticket && out?.body.status !== "matched") return;
    }
    ticket = null;
    status.textContent = "Opponent found.";
    location.assign(takeSeat(out.body));
  } finally {
    $("#quick-cancel").hidden = true;
  }
});

$("#quick-cancel").addEventListener("click", async () => {
  const t = ticket;
  ticket = null;
  $("#quick-status").textContent = "Search stopped.";
  if (t) await api("DELETE", `/games/quick-match/${encodeURIComponent(t)}`).catch(() => undefined);
});

// ---- live games -----------------------------------------------------------------------------------
async function refreshLive() {
  const list = $("#live-games");
  try {
    const { body } = await api("GET", "/games?status=active&limit=20");
    list.replaceChildren(
      ...body.games.map((g) =>
        el(
          "li",
          {},
          el("span", { text: `${g.players.A ?? "?"} vs ${g.players.B ?? "?"} · ${g.ruleset} · ${g.score.A}–${g.score.B} after ${g.moveCount} moves` }),
          el("a", { href: `/watch/${encodeURIComponent(g.id)}`, text: "Watch", "aria-label": `Watch ${g.players.A ?? "?"} versus ${g.players.B ?? "?"}` }),
        ),
      ),
    );
    if (!body.games.length) list.replaceChildren(el("li", { class: "muted", text: "No games are being played right now." }));
  } catch (e) {
    list.replaceChildren(el("li", { class: "error", text: `Could not load the games: ${e.message}` }));
  }
}

$("#refresh").addEventListener("click", refreshLive);
refreshLive();
setInterval(() => document.visibilityState === "visible" && refreshLive(), 15000);
