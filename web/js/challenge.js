// An agent's challenge link: shows who challenges and at what level, and lets the human accept it; the
// accepted game is played on the ordinary play page, which reports the result back when it ends.
import { $, api, ApiError, el, lastName, loadSeat, seatRequest, takeSeat } from "./api.js";

const token = decodeURIComponent(location.pathname.split("/")[2] || "");
const path = `/agent/challenge/${encodeURIComponent(token)}`;
$("#name").value = lastName();

function message(...parts) {
  $("#message").replaceChildren(...parts);
}

async function load() {
  let c;
  try {
    c = (await api("GET", path)).body;
  } catch (e) {
    return message(e instanceof ApiError && e.code === "not_found" ? "This challenge link is unknown." : `Could not load the challenge: ${e.message}`);
  }
  $("#title").textContent = `${c.agent.name} challenges you`;
  $("#agent").textContent = c.agent.name;
  $("#level").textContent = c.level;
  $("#ruleset").textContent = c.ruleset;
  $("#status").textContent = c.status;
  $("#expires").textContent = new Date(c.expiresAt).toLocaleString();
  $("#details").hidden = false;
  $("#accept-form").hidden = c.status !== "open";
  if (c.status === "open") message(`Play one game against ${c.agent.name}. The result goes back to the agent, checked by the service.`);
  else if (c.status === "expired") message("This challenge expired before anyone accepted it. Ask the agent for a new link.");
  else if (c.status === "playing") {
    const mine = c.gameId && loadSeat(c.gameId);
    message(mine ? el("a", { href: `/play/${encodeURIComponent(c.gameId)}`, text: "Continue your game" }) : el("a", { href: `/watch/${encodeURIComponent(c.gameId)}`, text: "The challenge is being played: watch it" }));
  } else if (c.status === "played") {
    const r = c.result;
    const outcome = !r.winner ? "No winner (aborted)" : r.winner === "draw" ? "A draw" : r.winner === r.humanSeat ? "The human won" : `${c.agent.name} won`;
    message(`${outcome}, ${r.score.A}–${r.score.B}. `, c.replayUrl ? el("a", { href: c.replayUrl, text: "Replay (JSON)" }) : "");
  }
}

$("#accept-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const button = $("#accept");
  button.disabled = true;
  $("#accept-error").textContent = "";
  try {
    const { body } = await seatRequest(`${path}/accept`, { name: $("#name").value.trim() || undefined });
    location.assign(takeSeat(body, { challenge: token }));
  } catch (e) {
    $("#accept-error").textContent = e.message;
    button.disabled = false;
    load();
  }
});

load();
