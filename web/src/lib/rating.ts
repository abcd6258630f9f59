// A rating as the pages show it: the number, and a "?" mark with its explanation while it is provisional
// (src/services/players/rating.ts: fewer than 5 games or a deviation above 110), wherever a rating appears.
import { el } from "./api";

export const PROVISIONAL_TIP =
  "Provisional: the rating is still settling (fewer than 5 rated games, or too few to be sure), so it moves a lot with each result.";

/** "1527" or "1527?" with the provisional explanation on the mark (tap or hover). */
export function ratingEl(rating: number, provisional: boolean): HTMLElement {
  return el(
    "span",
    { class: "rating", "data-provisional": String(provisional) },
    String(rating),
    provisional ? el("abbr", { class: "provisional", title: PROVISIONAL_TIP, "aria-label": "provisional", text: "?" }) : null,
  );
}
