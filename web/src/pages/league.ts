// /leagues/{id}: one league, followed while it runs. The page reads the league, its standings and its games
// (GET /leagues/{id}, /standings, /games) and reads them again every few seconds until the league has
// finished, redrawing in place: the summary and progress, the standings as a table and as a forest plot
// (each bot's rating with its 95% interval, best first), and every deal's two games with their replays.
import { $, api, ApiError, el, errorText, labelledCell, plural } from "../lib/api";
import { botMark } from "../lib/bot-mark";
import { forestPlot, replaceChart } from "../lib/charts";
import type { GamesView, LeagueView, StandingsView } from "../lib/api-types";
import { dealsText, leagueStatus, playerHref, type DealView } from "../lib/league";

const id = decodeURIComponent(location.pathname.split("/")[2] || "");
const path = `/leagues/${encodeURIComponent(id)}`;
/** How often a running (or open) league is read again. */
const POLL_MS = 2000;
/** Deals shown until "Show every deal": the newest activity first. */
const DEALS_SHOWN = 40;

let last: { league: LeagueView; standings: StandingsView; games: GamesView } | null = null;
let showAll = false;

function missing(): void {
  document.title = "No such league · Tile Arena";
  $("#title").textContent = "No such league";
  $("#notice").textContent = `There is no league with the id “${id}”. The link may be mistyped.`;
  $("#notice").hidden = false;
  document.body.dataset.status = "unknown";
}

function drawSummary(l: LeagueView): void {
  document.title = `${l.name} · League · Tile Arena`;
  $("#title").textContent = l.name;
  $("#summary").textContent = [
    leagueStatus(l.status),
    l.ruleset === "mutators" ? "Mutators rules" : "Classic rules",
    plural(l.entrants.length, "bot"),
    `${plural(l.deals, "deal")} per pair`,
    `${l.turnSeconds} s a turn`,
  ].join(" · ");
  const text =
    l.status === "open"
      ? `Open for entries: ${l.entrants.map((e) => e.name).join(", ") || "no bot yet"}.`
      : `${dealsText(l)}, ${l.progress.gamesPlayed} of ${l.progress.games} games.${l.status === "running" ? " Following live." : ""}`;
  // Written only when it changes, so a screen reader hears each step once.
  if ($("#progress-text").textContent !== text) $("#progress-text").textContent = text;
  document.body.dataset.status = l.status;
  document.body.dataset.dealsPlayed = String(l.progress.dealsPlayed);
}

const nameOf = (playerId: string): string => last?.league.entrants.find((e) => e.playerId === playerId)?.name ?? playerId;

function drawStandings(s: StandingsView): void {
  $("#standings-section").hidden = s.standings.length === 0;
  $("#standings-note").textContent =
    `${s.dealsCounted} of ${plural(s.deals, "deal")} counted (a deal counts once both its games are decided; a game aborted before both bots moved voids its deal). Intervals from ${s.resamples} bootstrap resamples of the deals.`;
  $("#standings").replaceChildren(
    el(
      "table",
      { class: "standings league-standings" },
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          ...["#", "Bot", "Rating", "95% interval", "Games", "W–D–L"].map((h) =>
            el("th", { scope: "col", text: h, ...(h === "W–D–L" ? { title: "won, drawn, lost" } : {}) }),
          ),
        ),
      ),
      el(
        "tbody",
        {},
        ...s.standings.map((r) =>
          el(
            "tr",
            { "data-id": r.playerId, "data-rating": r.rating, "data-low": r.low, "data-high": r.high },
            labelledCell("Rank", {}, String(r.rank)),
            labelledCell("Bot", {}, el("a", { href: playerHref(r.playerId), text: r.name }), botMark("bot")),
            labelledCell("Rating", { class: "num" }, r.rating.toFixed(1)),
            labelledCell("95% interval", { class: "num" }, `${r.low.toFixed(1)} to ${r.high.toFixed(1)}`),
            labelledCell("Games", { class: "num" }, String(r.games)),
            labelledCell("W–D–L", { class: "num", "aria-label": `${r.wins} won, ${r.draws} drawn, ${r.losses} lost` }, `${r.wins}–${r.draws}–${r.losses}`),
          ),
        ),
      ),
    ),
  );
  drawForest();
}

function drawForest(): void {
  if (!last?.standings.standings.length) return;
  const box = $("#forest");
  const rows = last.standings.standings.map((r) => ({
    id: r.playerId,
    name: r.name,
    rating: r.rating,
    low: r.low,
    high: r.high,
    href: playerHref(r.playerId),
  }));
  replaceChart(box, forestPlot(rows, Math.max(280, box.clientWidth)), "data-id");
}

const OUTCOME: Record<string, (g: DealView["games"][number]) => string> = {
  first: (g) => `${nameOf(g.first)} won`,
  second: (g) => `${nameOf(g.second)} won`,
  draw: () => "Draw",
  void: () => "Void (aborted before both moved)",
};

/** One game of a deal: its result and replay once both games of the deal are over; sealed until then. */
function gameCell(d: DealView, g: DealView["games"][number]): HTMLElement {
  const first = `${nameOf(g.first)} first`;
  const label = g === d.games[0] ? "First game" : "Second game";
  if (!d.released) return labelledCell(label, { "data-game": g.gameId, "data-state": "scheduled" }, `${first}: scheduled`);
  if (!g.outcome) return labelledCell(label, { "data-game": g.gameId, "data-state": "playing" }, `${first}: being played`);
  const twinDone = d.games.every((x) => x.outcome);
  if (!twinDone)
    return labelledCell(
      label,
      {
        "data-game": g.gameId,
        "data-state": "sealed",
        title: "Finished, sealed until the other game of the deal finishes: its replay would show that game's cards.",
      },
      `${first}: finished, sealed`,
    );
  return labelledCell(
    label,
    { "data-game": g.gameId, "data-state": "open" },
    `${first}: ${OUTCOME[g.outcome](g)} · `,
    el("a", { href: `/replay/${encodeURIComponent(g.gameId)}`, "aria-label": `Replay of deal ${d.index + 1}, ${first}`, text: "replay" }),
  );
}

function drawDeals(g: GamesView): void {
  $("#deals-section").hidden = g.deals.length === 0;
  // The deals being played and the latest decided first: what changes is on top; the rest in schedule order.
  const rank = (d: DealView) => (d.released && !d.games.every((x) => x.outcome) ? 0 : d.released ? 1 : 2);
  const ordered = [...g.deals].sort((a, b) => rank(a) - rank(b) || (rank(a) === 1 ? b.index - a.index : a.index - b.index));
  const shown = showAll ? ordered : ordered.slice(0, DEALS_SHOWN);
  $("#deals").replaceChildren(
    el(
      "table",
      { class: "standings deals" },
      el("thead", {}, el("tr", {}, ...["Deal", "Bots", "First game", "Second game"].map((h) => el("th", { scope: "col", text: h })))),
      el(
        "tbody",
        {},
        ...shown.map((d) =>
          el(
            "tr",
            { "data-deal": d.index },
            labelledCell("Deal", {}, String(d.index + 1)),
            labelledCell("Bots", {}, `${nameOf(d.a)} and ${nameOf(d.b)}, deal ${d.deal + 1}`),
            gameCell(d, d.games[0]),
            gameCell(d, d.games[1]),
          ),
        ),
      ),
    ),
  );
  const more = $<HTMLButtonElement>("#all-deals");
  more.hidden = showAll || g.deals.length <= DEALS_SHOWN;
  more.textContent = `Show every deal (${g.deals.length})`;
}

async function load(): Promise<boolean> {
  const [league, standings, games] = await Promise.all([
    api<LeagueView>("GET", path),
    api<StandingsView>("GET", `${path}/standings`),
    api<GamesView>("GET", `${path}/games`),
  ]);
  const before = last;
  last = { league: league.body, standings: standings.body, games: games.body };
  // Only what changed is drawn again, so a reader's focus (a link in the table) stays put between changes.
  const changed = (k: keyof NonNullable<typeof last>) => !before || JSON.stringify(before[k]) !== JSON.stringify(last![k]);
  if (changed("league")) drawSummary(league.body);
  if (changed("standings") || changed("league")) drawStandings(standings.body);
  if (changed("games") || changed("league")) drawDeals(games.body);
  // Done once the league has finished and its standings say so too (they are the final table then).
  return league.body.status === "finished" && standings.body.status === "finished";
}

async function follow(): Promise<void> {
  try {
    const done = await load();
    $("#notice").hidden = true;
    document.body.dataset.ready = "true";
    if (done) return;
  } catch (e) {
    if (e instanceof ApiError && e.code === "not_found") return missing();
    $("#notice").textContent = `Could not read the league (${errorText(e)}); trying again.`;
    $("#notice").hidden = false;
  }
  setTimeout(() => void follow(), POLL_MS);
}

$("#all-deals").addEventListener("click", () => {
  showAll = true;
  if (last) drawDeals(last.games);
});
let width = 0;
new ResizeObserver(() => {
  const w = $("#forest").clientWidth;
  if (w !== width) {
    width = w;
    drawForest();
  }
}).observe($("#forest"));
void follow();
