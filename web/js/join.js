// The invite link's page: asks for a name, claims the invited seat over REST, then opens the play page.
import { $, ApiError, lastName, seatRequest, takeSeat } from "./api.js";

const code = decodeURIComponent(location.pathname.split("/")[2] || "");
$("#code").textContent = code;
$("#name").value = lastName();

const REASONS = {
  not_found: "This invite code is unknown. Check the link you were sent.",
  already_joined: "Someone has already used this invite.",
  code_expired: "This game is no longer waiting for players.",
};

$("#join-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const button = $("#join");
  button.disabled = true;
  $("#join-error").textContent = "";
  try {
    const { body } = await seatRequest("/games/join", { code, name: $("#name").value.trim() || undefined });
    location.assign(takeSeat(body));
  } catch (e) {
    $("#join-error").textContent = (e instanceof ApiError && REASONS[e.code]) || e.message;
    button.disabled = false;
  }
});
