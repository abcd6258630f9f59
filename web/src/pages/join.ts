// The invite link's page: asks for a name, claims the invited seat over REST, then opens the play page.
import { $, ApiError, errorText, lastName, seatRequest, takeSeat } from "../lib/api";

const code = decodeURIComponent(location.pathname.split("/")[2] || "");
$("#code").textContent = code;
$<HTMLInputElement>("#name").value = lastName();

const REASONS: Record<string, string> = {
  not_found: "This invite code is unknown. Check the link you were sent.",
  already_joined: "Someone has already used this invite.",
  code_expired: "This game is no longer waiting for players.",
};

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
