// /bots: the bot directory (GET /bots), newest first: each bot's name (a link to its profile), its owner's
// description, rating, games, when it was last seen, and the leagues and tournaments it entered.
import type { BotDirectory } from "../lib/api-types";
import { $, api, el, errorText } from "../lib/api";
import { botMark } from "../lib/bot-mark";
import { leagueHref, playerHref } from "../lib/league";
import { ratingEl } from "../lib/rating";
import { enableTouchTips } from "../lib/touch-tips";

type Entry = BotDirectory["bots"][number];

const PAGE = 50;

const links = (list: Entry["leagues"], href: (id: string) => string): Array<Node | string> =>
  list.length ? list.flatMap((x, i) => [i ? ", " : "", el("a", { href: href(x.id), text: x.name })]) : [el("span", { class: "muted", text: "none" })];

const COLUMNS = ["Bot", "Description", "Rating", "Games", "Last seen", "Leagues", "Tournaments"] as const;

/** A bot's row; each cell names its column (`data-label`), which a phone shows beside it (one card per bot). */
function row(b: Entry): HTMLElement {
  const p = b.player;
  const cells: Record<(typeof COLUMNS)[number], Array<Node | string | null>> = {
    Bot: [el("a", { href: playerHref(b.id), text: b.name }), botMark("bot"), b.revoked ? el("span", { class: "muted small", text: " retired" }) : null],
    Description: [b.description ?? el("span", { class: "muted", text: "none given" })],
    Rating: [p ? ratingEl(p.rating, p.provisional) : "–"],
    Games: [String(p?.games ?? 0)],
    "Last seen": [el("time", { datetime: b.lastSeen, text: new Date(b.lastSeen).toLocaleDateString() })],
    Leagues: links(b.leagues, leagueHref),
    Tournaments: links(b.tournaments, (id) => `/tournaments/${encodeURIComponent(id)}`),
  };
  return el(
    "tr",
    { "data-id": b.id },
    // One span per cell, so a phone's card lays out two things a line: the column's name and the value.
    ...COLUMNS.map((c) => el("td", { "data-label": c, class: c === "Description" ? "description" : undefined }, el("span", {}, ...cells[c]))),
  );
}

let body: HTMLElement | null = null;

async function load(offset: number): Promise<void> {
  const more = $<HTMLButtonElement>("#more");
  try {
    const page = (await api<BotDirectory>("GET", `/bots?limit=${PAGE}&offset=${offset}`)).body;
    if (!body) {
      body = el("tbody");
      $("#list").replaceChildren(
        page.bots.length
          ? el("table", { class: "standings bots-list" }, el("thead", {}, el("tr", {}, ...COLUMNS.map((h) => el("th", { scope: "col", text: h })))), body)
          : el("p", { class: "muted", text: "No bot accounts yet. A bot registers over the API (POST /api/v1/bots)." }),
      );
    }
    body.append(...page.bots.map(row));
    more.hidden = page.nextOffset === null;
    more.onclick = () => void load(page.nextOffset ?? 0);
    document.body.dataset.ready = "true";
  } catch (e) {
    $("#list").append(el("p", { class: "error", text: `Could not load the bots: ${errorText(e)}` }));
  }
}

void load(0);
enableTouchTips();
