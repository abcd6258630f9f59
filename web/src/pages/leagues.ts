// /leagues: every league, newest first (GET /leagues): name (a link to its page), status, bots, deals per
// pair, and progress (deals played of scheduled, with a progress bar).
import { $, api, el, errorText, labelledCell } from "../lib/api";
import type { LeagueListView, LeagueView } from "../lib/api-types";
import { dealsText, leagueHref, leagueStatus, playerHref } from "../lib/league";

function progressCell(l: LeagueView): HTMLElement {
  if (l.status === "open") return labelledCell("Progress", {}, "not started");
  const label = dealsText(l);
  return labelledCell(
    "Progress",
    {},
    el("progress", { max: l.progress.deals || 1, value: l.progress.dealsPlayed, "aria-label": label }),
    el("span", { class: "small", text: ` ${label}` }),
  );
}

function listTable(list: readonly LeagueView[]): HTMLElement {
  return el(
    "table",
    { class: "standings leagues-list" },
    el("thead", {}, el("tr", {}, ...["League", "Status", "Bots", "Deals per pair", "Progress"].map((h) => el("th", { scope: "col", text: h })))),
    el(
      "tbody",
      {},
      ...list.map((l) =>
        el(
          "tr",
          { "data-id": l.id, "data-status": l.status },
          labelledCell("League", {}, el("a", { href: leagueHref(l.id), text: l.name })),
          labelledCell("Status", {}, leagueStatus(l.status)),
          labelledCell(
            "Bots",
            { class: "names" },
            ...(l.entrants.length ? l.entrants.flatMap((e, i) => [i ? ", " : "", el("a", { href: playerHref(e.playerId), text: e.name })]) : ["none yet"]),
          ),
          labelledCell("Deals per pair", {}, String(l.deals)),
          progressCell(l),
        ),
      ),
    ),
  );
}

async function load(): Promise<void> {
  try {
    const { leagues } = (await api<LeagueListView>("GET", "/leagues?limit=100")).body;
    $("#list").replaceChildren(
      leagues.length
        ? listTable(leagues)
        : el("p", { class: "muted", text: "No leagues yet. A league is created over the API (POST /api/v1/leagues) and entered by bots with their keys." }),
    );
    document.body.dataset.ready = "true";
  } catch (e) {
    $("#list").replaceChildren(el("p", { class: "error", text: `Could not load the leagues: ${errorText(e)}` }));
  }
}

void load();
