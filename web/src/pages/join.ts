// The invite link's page: first asks the service what the code opens (GET /games/join/{code}), so an unknown,
// used or closed invite is said before any form; then asks for a name, claims the invited seat over REST and
// opens the play page.
import type { InviteStatus } from "../lib/api-types";
import { $, api, ApiError, el, errorText, lastName, seatRequest, takeSeat } from "../lib/api";

const code = decodeURIComponent(location.pathname.split("/")[2] || "");
$("#code").textContent = code;
$<HTMLInputElement>("#name").value = lastName();

const REASONS: Record<string, string> = {
  not_found: "This invite code is unknown. Check the link you were sent.",
  already_joined: "Someone has already used this invite.",
  code_expired: "This game is no longer waiting for players.",
};

const CLOSED: Record<string, string> = {
  used: "Someone has already used this invite.",
  closed: "This game is no longer waiting for players.",
};

/** Shows the form for an open invite, or says why there is none, with the ways on. */
async function checkInvite(): Promise<void> {
  try {
    const { body } = await api<InviteStatus>("GET", `/games/join/${encodeURIComponent(code)}`);
    if (body.status === "open") {
      if (body.game.host) $("#invite-host").textContent = ` from ${body.game.host} (${body.game.ruleset})`;
      $("#join-form").hidden = false;
      return;
    }
    const watch = el("a", { href: `/watch/${encodeURIComponent(body.game.id)}`, text: "watch the game" });
    closedInvite(CLOSED[body.status], body.status === "used" ? [" You can ", watch, " or ", el("a", { href: "/", text: "start a new one" }), "."] : []);
  } catch (e) {
    if (e instanceof ApiError && e.code === "not_found") return closedInvite(REASONS.not_found, [" ", el("a", { href: "/", text: "Start a new game" }), "."]);
    // The check could not be made: the form still works, and says why a claim fails.
    $("#join-form").hidden = false;
  } finally {
    $("#invite-checking").hidden = true;
    document.body.dataset.ready = "true";
  }
}

function closedInvite(text: string, more: Array<Node | string>): void {
  $("#title").textContent = "This invite cannot be used";
  $("#invite-notice").replaceChildren(text, ...more);
  $("#invite-notice").hidden = false;
}
void checkInvite();

$("#join-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const button = $<HTMLButtonElement>("#join");
  button.disabled = true;
  $("#join-error").textContent = "";
  void seatRequest("/games/join", { code, name: $<HTMLInputElement>("#name").value.trim() || undefined, reserveSeat: true })
    .then(({ body }) => location.assign(takeSeat(body)))
    .catch((e: unknown) => {
      $("#join-error").textContent = (e instanceof ApiError && REASONS[e.code]) || errorText(e);
      button.disabled = false;
    });
});
