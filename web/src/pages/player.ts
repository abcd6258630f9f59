// A player's profile (/players/{id}): rating, rank, form, favourite champion, clubs with their places, and
// the recent games this browser played as that profile, with replay links.
import type { PlayerService } from "../../../src/players/service";
import { $, api, ApiError, el, errorText, loadSeat, storedPlayer } from "../lib/api";
import { CHAMPION_TIPS } from "../lib/glossary";
import type { GameRecord } from "../lib/model";

type Profile = Awaited<ReturnType<PlayerService["profile"]>>;

const playerId = decodeURIComponent(location.pathname.split("/")[2] || "");
const FORM: Record<string, string> = { W: "won", L: "lost", D: "draw" };

function row(term: string, ...value: Array<Node | string>): Node[] {
  return [el("dt", { text: term }), el("dd", {}, ...value)];
}

/** Game ids this browser holds a seat in (newest last in storage order is not guaranteed, so sorted by time). */
function storedGameIds(): string[] {
  const ids: string[] = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i) ?? "";
    if (key.startsWith("arena.seat.")) ids.push(key.slice("arena.seat.".length));
  }
  return ids.filter((id) => loadSeat(id));
}

async function recentGames(): Promise<void> {
  const list = $("#recent");
  const records = (await Promise.all(storedGameIds().map((id) => api<GameRecord>("GET", `/games/${encodeURIComponent(id)}`).then((r) => r.body, () => null))))
    .filter((r): r is GameRecord => r !== null && r.status === "finished" && (r.players.A?.id === playerId || r.players.B?.id === playerId))
    .sort((a, b) => (b.finishedAt ?? "").localeCompare(a.finishedAt ?? ""))
    .slice(0, 10);
  $("#recent-section").hidden = records.length === 0;
  list.replaceChildren(
    ...records.map((r) => {
      const seat = r.players.A?.id === playerId ? "A" : "B";
      const winner = "winner" in r ? r.winner : null;
      const result = winner === "draw" ? "draw" : winner === seat ? "won" : winner ? "lost" : "aborted";
      const opponent = r.players[seat === "A" ? "B" : "A"]?.name ?? "?";
      return el("li", {}, el("span", { text: `${result} against ${opponent}, ${r.score.A}–${r.score.B} · ${r.ruleset} ` }), el("a", { href: `/replay/${encodeURIComponent(r.id)}`, text: "replay" }));
    }),
  );
}

async function load(): Promise<void> {
  let body: Profile;
  try {
    body = (await api<Profile>("GET", `/players/${encodeURIComponent(playerId)}`)).body;
  } catch (e) {
    $("#message").hidden = false;
    $("#message").textContent = e instanceof ApiError && e.code === "not_found" ? "There is no player with this id." : `Could not load the profile: ${errorText(e)}`;
    return;
  }
  const p = body.player;
  document.title = `${p.name} · Tile Arena`;
  $("#title").textContent = p.name + (storedPlayer()?.id === p.id ? " (you)" : "");
  const fav = p.favoriteChampion;
  $("#profile").replaceChildren(
    ...row("Rating", `${p.rating}${p.provisional ? " (provisional)" : ""}`),
    ...row("Rank", p.rank),
    ...row("Games", `${p.games}, ${Math.round(p.winRate * 100)}% won`),
    ...row("Form", p.recentForm ? el("span", { class: "form", "aria-label": [...p.recentForm].map((c) => FORM[c] ?? c).join(", ") }, ...[...p.recentForm].map((c) => el("span", { class: `f-${c}`, text: c, "aria-hidden": "true" }))) : "no games yet"),
    ...row("Favourite champion", fav ? el("span", { title: CHAMPION_TIPS[fav.name] ?? "", text: `${fav.name} (${fav.games} game${fav.games === 1 ? "" : "s"}, ${Math.round(fav.winRate * 100)}% won)` }) : "none yet"),
  );
  $("#clubs").replaceChildren(
    ...(body.clubs.length
      ? body.clubs.map((c) => el("li", {}, el("a", { href: `/leaderboards/${c.kind}/${encodeURIComponent(c.id)}`, text: c.name }), ` · ${c.kind}, place ${c.place} of ${c.members}`))
      : [el("li", { class: "muted", text: "Not in any club or community." })]),
  );
  $("#profile-section").hidden = false;
  await recentGames().catch(() => undefined);
  document.body.dataset.ready = "true";
}

void load();
