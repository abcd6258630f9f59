// The BOT mark beside a bot account's name wherever a player appears: text a screen reader reads as "BOT",
// with a title that says what it means.
import { el } from "./api";

/** A "BOT" badge for a bot account's name; nothing (null) for anyone else. */
export function botMark(kind: string | undefined): HTMLElement | null {
  return kind === "bot" ? el("span", { class: "bot-mark", title: "Bot: a program playing through a bot account", text: "BOT" }) : null;
}
