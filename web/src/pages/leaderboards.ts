// Leaderboards: /leaderboards lists the clubs and communities with their leaders; /leaderboards/{kind}/{id}
// ranks one club's or community's members by rating.
import { $, api, el, errorText, plural } from "../lib/api";
import type { ClubList, CommunityList, Leaderboard, PlayerLeaderboard } from "../lib/api-types";
import { botMark } from "../lib/bot-mark";
import { ratingEl } from "../lib/rating";
import { enableTouchTips } from "../lib/touch-tips";

type Standing = Leaderboard["standings"][number];
type Listed = ClubList["clubs"][number] | CommunityList["communities"][number];

const [, , kind, rawId] = location.pathname.split("/");
const PLURAL: Record<string, "clubs" | "communities"> = { club: "clubs", community: "communities" };

const playerLink = (s: Standing) => el("a", { href: `/players/${encodeURIComponent(s.player.id)}`, text: s.player.name });

function standingsTable(rows: readonly Standing[]): HTMLElement {
  return el(
    "table",
    { class: "standings" },
    el("thead", {}, el("tr", {}, ...["#", "Player", "Rating", "Rank", "Games", "W–L–D", "Form"].map((h) => el("th", { scope: "col", text: h })))),
    el(
      "tbody",
      {},
      ...rows.map((s) =>
        el(
          "tr",
          {},
          el("td", { text: String(s.place) }),
          el("td", {}, playerLink(s), botMark(s.kind)),
          el("td", {}, ratingEl(s.rating, s.provisional)),
          el("td", { text: s.rank }),
          el("td", { text: String(s.games) }),
          el("td", { text: `${s.wins}–${s.losses}–${s.draws}` }),
          el("td", { text: s.recentForm }),
        ),
      ),
    ),
  );
}

async function one(k: string, id: string): Promise<void> {
  const b = (await api<Leaderboard>("GET", `/${PLURAL[k]}/${encodeURIComponent(id)}?limit=100`)).body;
  document.title = `${b.name} · Leaderboard · Tile Arena`;
  $("#title").textContent = `${b.name}: leaderboard`;
  $("#content").replaceChildren(
    el("p", { class: "muted", text: `${b.kind}, ${plural(b.members, "member")}` }),
    b.standings.length ? standingsTable(b.standings) : el("p", { class: "muted", text: "No members yet." }),
    el("p", {}, el("a", { href: "/leaderboards", text: "All leaderboards" })),
  );
}

/** Everyone by rating: people in one table, the house's levels (bots) in another, so the two never mix. */
async function playersSection(): Promise<HTMLElement> {
  const b = (await api<PlayerLeaderboard>("GET", "/players?limit=50")).body;
  const bots = el(
    "table",
    { class: "standings bots" },
    el("thead", {}, el("tr", {}, ...["Bot", "Rating", "Rank"].map((h) => el("th", { scope: "col", text: h })))),
    el("tbody", {}, ...b.bots.map((x) => el("tr", {}, el("td", { text: x.name }), el("td", {}, ratingEl(x.rating, false)), el("td", { text: x.rank })))),
  );
  return el(
    "section",
    { class: "panel", id: "players", "aria-labelledby": "players-h" },
    el("h2", { id: "players-h", text: "Players" }),
    b.standings.length ? standingsTable(b.standings) : el("p", { class: "muted", text: "No rated players yet: finish a game to appear here." }),
    el("p", { class: "muted small", text: "A ? marks a provisional rating, still settling after few games." }),
    el(
      "p",
      { class: "muted small" },
      "Bot accounts (marked BOT) are rated with people; every one is in ",
      el("a", { href: "/bots", text: "the bot directory" }),
      ", and their leagues are on ",
      el("a", { href: "/leagues", text: "the leagues page" }),
      ".",
    ),
    el("h3", { class: "small-h", text: "The house opponent, at fixed ratings" }),
    bots,
  );
}

async function all(): Promise<void> {
  const players = await playersSection();
  const sections = await Promise.all(
    (["club", "community"] as const).map(async (k) => {
      const list: Listed[] =
        k === "club"
          ? (await api<ClubList>("GET", "/clubs?limit=100")).body.clubs
          : (await api<CommunityList>("GET", "/communities?limit=100")).body.communities;
      return el(
        "section",
        { class: "panel", "aria-labelledby": `${k}-h` },
        el("h2", { id: `${k}-h`, text: k === "club" ? "Clubs" : "Communities" }),
        list.length
          ? el(
              "ul",
              { class: "games" },
              ...list.map((c) =>
                el(
                  "li",
                  {},
                  el("a", { href: `/leaderboards/${k}/${encodeURIComponent(c.id)}`, text: c.name }),
                  el(
                    "span",
                    { class: "muted" },
                    plural(c.members, "member"),
                    ...(c.leaders[0] ? [` · leader ${c.leaders[0].player.name} (`, ratingEl(c.leaders[0].rating, c.leaders[0].provisional), ")"] : []),
                  ),
                ),
              ),
            )
          : el("p", { class: "muted", text: `No ${PLURAL[k]} yet.` }),
      );
    }),
  );
  $("#content").replaceChildren(players, ...sections);
}

(kind && rawId && PLURAL[kind] ? one(kind, decodeURIComponent(rawId)) : all())
  .then(() => void (document.body.dataset.ready = "true"))
  .catch((e: unknown) => $("#content").replaceChildren(el("p", { class: "error", text: `Could not load the leaderboard: ${errorText(e)}` })));
enableTouchTips();
