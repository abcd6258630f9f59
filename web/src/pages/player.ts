// A player's profile (/players/{id}): rating, rank, form, favourite champion, clubs with their places, and
// the player's public games (GET /players/{id}/games, the same for every visitor), with replay links; the
// rating over time (GET /players/{id}/ratings: one point per rated game); a bot's description (GET /bots/{id}).
import { $, api, ApiError, el, errorText, plural, storedPlayer } from "../lib/api";
import type { BotProfile, PlayerGames, Profile, RatingHistory } from "../lib/api-types";
import { botMark } from "../lib/bot-mark";
import { CHAMPION_TIPS } from "../lib/glossary";
import { ratingChart, replaceChart, type HistoryPoint } from "../lib/charts";
import { ratingEl } from "../lib/rating";
import { enableTouchTips } from "../lib/touch-tips";

/** Points read for the chart, at most: ten pages of the history. */
const MAX_POINTS = 5000;

const playerId = decodeURIComponent(location.pathname.split("/")[2] || "");
const FORM: Record<string, string> = { W: "won", L: "lost", D: "draw" };

function row(term: string, ...value: Array<Node | string>): Node[] {
  return [el("dt", { text: term }), el("dd", {}, ...value)];
}

const RESULT: Record<string, string> = { win: "won", loss: "lost", draw: "draw", aborted: "aborted" };

/** The player's public games from the API (anyone sees them), newest first, a page at a time. */
async function recentGames(cursor?: string): Promise<void> {
  const q = new URLSearchParams({ limit: "10", ...(cursor ? { cursor } : {}) });
  const { body } = await api<PlayerGames>("GET", `/players/${encodeURIComponent(playerId)}/games?${q}`);
  const list = $("#recent");
  if (!cursor) list.replaceChildren();
  list.append(
    ...body.games.map((g) => {
      const opponent = g.players[g.seat === "A" ? "B" : "A"] ?? "?";
      const id = encodeURIComponent(g.id);
      const what = g.result ? `${RESULT[g.result]} against ${opponent}, ${g.score.A}–${g.score.B}` : `playing ${opponent} now, ${g.score.A}–${g.score.B}`;
      const link =
        g.status === "finished"
          ? g.result === "aborted" && g.moveCount === 0
            ? null
            : el("a", { href: `/replay/${id}`, text: "replay" })
          : el("a", { href: `/watch/${id}`, text: "watch" });
      return el(
        "li",
        { "data-game": g.id },
        el("span", { text: `${what} · ${g.ruleset} · ${plural(g.moveCount, "move")} · ${new Date(g.createdAt).toLocaleDateString()}` }),
        link,
      );
    }),
  );
  $("#recent-section").hidden = false;
  if (!body.games.length && !cursor) list.replaceChildren(el("li", { class: "muted", text: "No public games yet." }));
  const more = $<HTMLButtonElement>("#recent-more");
  more.hidden = !body.nextCursor;
  more.onclick = () => void recentGames(body.nextCursor ?? undefined);
}

let points: HistoryPoint[] = [];

function drawChart(): void {
  const box = $("#rating-chart");
  if (points.length) replaceChart(box, ratingChart(points, Math.max(260, box.clientWidth)), "data-game");
}

/** Every point of the rating history (up to MAX_POINTS), page by page, then the chart. */
async function ratingHistory(): Promise<void> {
  const all: HistoryPoint[] = [];
  let after: number | null = 0;
  while (after !== null && all.length < MAX_POINTS) {
    const page: RatingHistory = (await api<RatingHistory>("GET", `/players/${encodeURIComponent(playerId)}/ratings?limit=500&after=${after}`)).body;
    all.push(...page.ratings);
    after = page.nextAfter;
  }
  points = all;
  const summary = $("#ratings-summary");
  if (!all.length) {
    summary.textContent = "No rated games on record yet.";
    return;
  }
  const ratings = all.map((p) => p.rating);
  summary.textContent = `${plural(all.length, "rated game")}: from ${ratings[0]} after the first to ${ratings[ratings.length - 1]} now; highest ${Math.max(...ratings)}, lowest ${Math.min(...ratings)}.`;
  $("#ratings-legend").hidden = false;
  drawChart();
}

/** A bot's profile shows what its owner says it is, and whether it still plays. */
async function botAbout(): Promise<void> {
  const bot = (await api<BotProfile>("GET", `/bots/${encodeURIComponent(playerId)}`)).body;
  const about = $("#about");
  about.replaceChildren(
    bot.description ? el("span", { text: bot.description }) : el("span", { class: "muted", text: "A bot account; its owner gave no description." }),
    bot.revoked ? el("span", { class: "muted", text: " Retired: its key was revoked." }) : "",
  );
  about.hidden = false;
}

async function load(): Promise<void> {
  let body: Profile;
  try {
    body = (await api<Profile>("GET", `/players/${encodeURIComponent(playerId)}`)).body;
  } catch (e) {
    $("#message").hidden = false;
    $("#message").textContent =
      e instanceof ApiError && e.code === "not_found" ? "There is no player with this id." : `Could not load the profile: ${errorText(e)}`;
    return;
  }
  const p = body.player;
  document.title = `${p.name} · Tile Arena`;
  $("#title").replaceChildren(p.name + (storedPlayer()?.id === p.id ? " (you)" : ""), botMark(p.kind) ?? "");
  const fav = p.favoriteChampion;
  $("#profile").replaceChildren(
    ...row("Rating", ratingEl(p.rating, p.provisional), p.provisional ? el("span", { class: "muted", text: " provisional" }) : ""),
    ...row("Rank", p.rank),
    ...row("Games", `${p.games}, ${Math.round(p.winRate * 100)}% won`),
    ...row(
      "Form",
      p.recentForm
        ? el(
            "span",
            { class: "form", "aria-label": [...p.recentForm].map((c) => FORM[c] ?? c).join(", ") },
            ...[...p.recentForm].map((c) => el("span", { class: `f-${c}`, text: c, "aria-hidden": "true" })),
          )
        : "no games yet",
    ),
    ...row(
      "Favourite champion",
      fav
        ? el("span", {
            title: CHAMPION_TIPS[fav.name] ?? "",
            text: `${fav.name} (${fav.games} game${fav.games === 1 ? "" : "s"}, ${Math.round(fav.winRate * 100)}% won)`,
          })
        : "none yet",
    ),
  );
  $("#clubs").replaceChildren(
    ...(body.clubs.length
      ? body.clubs.map((c) =>
          el(
            "li",
            {},
            el("a", { href: `/leaderboards/${c.kind}/${encodeURIComponent(c.id)}`, text: c.name }),
            ` · ${c.kind}, place ${c.place} of ${c.members}`,
          ),
        )
      : [el("li", { class: "muted", text: "Not in any club or community." })]),
  );
  $("#profile-section").hidden = false;
  if (p.kind === "bot") await botAbout().catch(() => undefined);
  await ratingHistory().catch((e: unknown) => void ($("#ratings-summary").textContent = `Could not load the rating history: ${errorText(e)}`));
  await recentGames().catch((e: unknown) => {
    $("#recent-section").hidden = false;
    $("#recent").replaceChildren(el("li", { class: "error", text: `Could not load the games: ${errorText(e)}` }));
  });
  document.body.dataset.ready = "true";
}

let width = 0;
new ResizeObserver(() => {
  const w = $("#rating-chart").clientWidth;
  if (w !== width) {
    width = w;
    drawChart();
  }
}).observe($("#rating-chart"));
void load();
enableTouchTips();
