// Side effects of state changes: the generated sounds (behind a switch this browser remembers), and the
// result report of an agent challenge.
import { api, ApiError, errorText, type StoredSeat } from "./api";
import type { Seat, ViewModel } from "./model";

const SOUND_KEY = "arena.sound";
const sounds: Record<string, HTMLAudioElement> = {};

export const soundOn = (): boolean => localStorage.getItem(SOUND_KEY) !== "off";
export function setSound(on: boolean): void {
  localStorage.setItem(SOUND_KEY, on ? "on" : "off");
}

function play(name: string): void {
  if (!soundOn()) return;
  sounds[name] ??= new Audio(`/assets/sounds/${name}.wav`);
  // Browsers refuse audio before the first user gesture; a silent page is fine then.
  sounds[name].currentTime = 0;
  sounds[name].play().catch(() => undefined);
}

/** A placement clicks, a capture (notation `...x2`) thuds, and the end plays a win or lose sting. */
export function playSounds(before: ViewModel | null, now: ViewModel, mySeat: Seat | null): void {
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
export async function reportChallenge(gameId: string, seat: StoredSeat, model: ViewModel): Promise<void> {
  const out = document.querySelector("#challenge-report");
  if (!out) return;
  if (seat.reported) return void (out.textContent = "The result was reported to the agent.");
  try {
    const { body } = await api<{ agent?: { name?: string } }>("POST", "/agent/result", {
      token: seat.challenge,
      gameId,
      winner: model.winner,
      score: model.score,
    });
    seat.reported = true;
    out.textContent = `Result reported to ${body.agent?.name ?? "the agent"} and verified by the service.`;
  } catch (e) {
    // `conflict`: another tab already reported it; the challenge is settled either way.
    const conflict = e instanceof ApiError && e.code === "conflict";
    if (conflict) seat.reported = true;
    out.textContent = conflict ? "The result was reported to the agent." : `The result could not be reported: ${errorText(e)}`;
  }
}
