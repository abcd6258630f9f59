// An agent's challenge link: shows who challenges and at what level, and lets the human accept it; the
// accepted game is played on the ordinary play page, which reports the result back when it ends.
import { $, api, ApiError, el, errorText, lastName, loadSeat, seatRequest, takeSeat } from "../lib/api";

/** GET /agent/challenge/{token}, the fields this page reads. */
interface Challenge {
  agent: { name: string };
  level: string;
  ruleset: string;
  status: "open" | "expired" | "playing" | "played";
  expiresAt: string;
  gameId?: string;
  replayUrl?: string;
  result?: { winner: string | null; humanSeat: string; score: { A: number; B: number } };
}

const token = decodeURIComponent(location.pathname.split("/")[2] || "");
const path = `/agent/challenge/${encodeURIComponent(token)}`;
$<HTMLInputElement>("#name").value = lastName();

function message(...parts: Array<Node | string>): void {
  $("#message").replaceChildren(...parts);
}

async function load(): Promise<void> {
  let c: Challenge;
  try {
    c = (await api<Challenge>("GET", path)).body;
  } catch (e) {
    return message(e instanceof ApiError && e.code === "not_found" ? "This challenge link is unknown." : `Could not load the challenge: ${errorText(e)}`);
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
  else if (c.status === "playing" && c.gameId) {
    const id = encodeURIComponent(c.gameId);
    message(
      loadSeat(c.gameId)
        ? el("a", { href: `/play/${id}`, text: "Continue your game" })
        : el("a", { href: `/watch/${id}`, text: "The challenge is being played: watch it" }),
    );
  } else if (c.status === "played" && c.result) {
    const r = c.result;
    const outcome = !r.winner ? "No winner (aborted)" : r.winner === "draw" ? "A draw" : r.winner === r.humanSeat ? "The human won" : `${c.agent.name} won`;
    message(`${outcome}, ${r.score.A}–${r.score.B}. `, c.gameId ? el("a", { href: `/replay/${encodeURIComponent(c.gameId)}`, text: "Watch the replay" }) : "");
  }
}

$("#accept-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  void accept();
});

async function accept(): Promise<void> {
  const button = $<HTMLButtonElement>("#accept");
  button.disabled = true;
  $("#accept-error").textContent = "";
  try {
    const { body } = await seatRequest(`${path}/accept`, { name: $<HTMLInputElement>("#name").value.trim() || undefined });
    location.assign(takeSeat(body, { challenge: token }));
  } catch (e) {
    $("#accept-error").textContent = errorText(e);
    button.disabled = false;
    void load();
  }
}

void load();
