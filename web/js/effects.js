// Side effects of state changes: the generated sounds, and the result report of an agent challenge.
import { api } from "./api.js";

const sounds = {};
function play(name) {
  sounds[name] ??= new Audio(`/assets/sounds/${name}.wav`);
  // Browsers refuse audio before the first user gesture; a silent page is fine then.
  sounds[name].currentTime = 0;
  sounds[name].play().catch(() => undefined);
}

/** A placement clicks, a capture (notation `...x2`) thuds, and the end plays a win or lose sting. */
export function playSounds(before, now, mySeat) {
  if (!before) return;
  if (now.moveCount > before.moveCount) play(/x\d+$/.test(now.lastMove) ? "capture" : "place");
  if (now.status === "finished" && before.status !== "finished" && mySeat) {
    play(now.winner === mySeat ? "win" : "lose");
  }
}

/**
 * The game client of a challenge reports the result once the game ends; the service checks it against
 * its own record and answers with the verified result, which is shown to the human.
 */
export async function reportChallenge(gameId, seat, model) {
  const out = document.querySelector("#challenge-report");
  if (seat.reported) return void (out.textContent = "The result was reported to the agent.");
  try {
    const { body } = await api("POST", "/agent/result", { token: seat.challenge, gameId, winner: model.winner, score: model.score });
    seat.reported = true;
    out.textContent = `Result reported to ${body.agent?.name ?? "the agent"} and verified by the service.`;
  } catch (e) {
    // `conflict`: another tab already reported it; the challenge is settled either way.
    if (e.code === "conflict") seat.reported = true;
    out.textContent = e.code === "conflict" ? "The result was reported to the agent." : `The result could not be reported: ${e.message}`;
  }
}
