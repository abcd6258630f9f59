// /tournaments/{id}: one tournament, followed live. The page joins the tournament's room as a spectator
// (every client gets the same public state) and redraws the standings and the current round's pairings on
// every change; the REST view gives the first paint and stands in while the connection is down. Joining,
// withdrawing and starting are REST calls with the tokens this browser keeps (lib/tournament.ts). A paired
// entrant's token is handed to the game page as that game's seat, so "Play your game" plays the seat.
import type { TournamentRoomState } from "../../../rooms/tournament-state";
import { $, api, ApiError, el, errorText, seatRequest, storedPlayer } from "../lib/api";
import type { LinkState } from "../lib/room-link";
import { TournamentConnection } from "../lib/tournament-connection";
import {
  formatName,
  handOverSeat,
  loadTournament,
  plainState,
  saveTournament,
  scoreColumns,
  scoreText,
  statusName,
  type StandingRow,
  type StoredTournament,
  type TournamentView,
} from "../lib/tournament";

const id = decodeURIComponent(location.pathname.split("/")[2] || "");
let stored: StoredTournament = loadTournament(id);
let view: TournamentView | null = null;

interface Pairing {
  first: string;
  second: string;
  gameId: string;
  outcome: string;
}
interface Live {
  status: string;
  round: number;
  rounds: number;
  format: string;
  standings: StandingRow[];
  pairings: Pairing[];
}
let live: Live | null = null;

$<HTMLAnchorElement>("#trf").href = `/api/v1/tournaments/${encodeURIComponent(id)}/trf`;

function notice(text: string): void {
  $("#notice").textContent = text;
  $("#notice").hidden = false;
}

let unknown = false;
function missing(): void {
  unknown = true;
  document.body.dataset.status = "unknown";
  document.title = "No such tournament · Tile Arena";
  $("#title").textContent = "No such tournament";
  for (const s of document.querySelectorAll<HTMLElement>("main section, #summary, #connection, .links #trf")) s.hidden = true;
  notice(`There is no tournament with the id “${id}”. The link may be mistyped.`);
}

// ---- drawing --------------------------------------------------------------------------------------
const nameOf = (playerId: string): string =>
  live?.standings.find((s) => s.playerId === playerId)?.name || view?.entrants.find((e) => e.playerId === playerId)?.name || playerId;

const OUTCOME: Record<string, (p: Pairing) => string> = {
  first: (p) => `${nameOf(p.first)} won`,
  second: (p) => `${nameOf(p.second)} won`,
  draw: () => "Draw",
};

function drawSummary(t: Live): void {
  const name = view?.name || "Tournament";
  document.title = `${name} · Tournament · Tile Arena`;
  $("#title").textContent = name;
  const parts = [formatName(t.format), view?.ruleset === "mutators" ? "Mutators rules" : "Classic rules", statusName(t.status)];
  if (t.format === "swiss") parts.push(t.status === "open" ? `${t.rounds} rounds` : `Round ${t.round} of ${t.rounds}`);
  else if (t.round) parts.push(`Round ${t.round}`);
  parts.push(`${t.standings.length} ${t.standings.length === 1 ? "entrant" : "entrants"}`);
  $("#summary").textContent = parts.join(" · ");
  document.body.dataset.status = t.status;
  document.body.dataset.round = String(t.round);
}

function drawPairings(t: Live): void {
  const out = $("#pairings");
  $("#pairings-h").textContent = t.round ? `Round ${t.round} pairings` : "Pairings";
  if (!t.pairings.length) {
    out.replaceChildren(
      el("p", { class: "muted", text: t.status === "open" ? "Round 1 is paired when the director starts the tournament." : "No games in this round." }),
    );
    return;
  }
  const mine = stored.entrant?.playerId;
  out.replaceChildren(
    el(
      "ul",
      { class: "games pairings" },
      ...t.pairings.map((p) => {
        if (!p.second) return el("li", { "data-bye": p.first }, el("span", {}, el("strong", { text: nameOf(p.first) }), " has a bye (1 point)"));
        const over = Boolean(p.outcome);
        return el(
          "li",
          { "data-game": p.gameId, "data-outcome": p.outcome, class: p.first === mine || p.second === mine ? "mine" : null },
          el(
            "span",
            {},
            el("strong", { text: nameOf(p.first) }),
            " vs ",
            el("strong", { text: nameOf(p.second) }),
            el("span", { class: "muted", text: over ? ` · ${OUTCOME[p.outcome]?.(p) ?? p.outcome}` : " · playing" }),
          ),
          el("a", {
            class: "button secondary",
            href: `/watch/${encodeURIComponent(p.gameId)}`,
            "aria-label": `Watch ${nameOf(p.first)} vs ${nameOf(p.second)}`,
            text: "Watch",
          }),
        );
      }),
    ),
  );
}

function drawStandings(t: Live): void {
  const cols = scoreColumns(t.format, t.standings);
  const mine = stored.entrant?.playerId;
  $("#standings").replaceChildren(
    t.standings.length
      ? el(
          "table",
          { class: "standings tournament-standings" },
          el(
            "thead",
            {},
            el(
              "tr",
              {},
              el("th", { scope: "col", text: "#" }),
              el("th", { scope: "col", text: "Player" }),
              ...cols.map((c) => el("th", { scope: "col", title: c.title, text: c.label })),
            ),
          ),
          el(
            "tbody",
            {},
            ...t.standings.map((s) =>
              el(
                "tr",
                { "data-player": s.playerId, class: s.playerId === mine ? "mine" : null },
                el("td", { text: String(s.rank) }),
                el(
                  "td",
                  {},
                  el("a", { href: `/players/${encodeURIComponent(s.playerId)}`, text: s.name }),
                  s.withdrawn ? el("span", { class: "muted", text: " (withdrawn)" }) : null,
                  s.playerId === mine ? el("span", { class: "muted", text: " (you)" }) : null,
                ),
                ...cols.map((c) => el("td", { "data-col": c.key, text: scoreText(s[c.key]) })),
              ),
            ),
          ),
        )
      : el("p", { class: "muted", text: "No entrants yet." }),
  );
  $("#tiebreaks").textContent = t.format === "swiss" ? "Win 1, draw ½, loss 0, bye 1. Ties are broken by Buchholz, then Sonneborn-Berger, then rating." : "";
}

/** Hands the seat over once per game; the link waits for it when clicked before it is done. */
const handovers = new Map<string, Promise<boolean>>();
function handOver(gameId: string): Promise<boolean> {
  const entrant = stored.entrant;
  if (!entrant) return Promise.resolve(false);
  let p = handovers.get(gameId);
  if (!p) {
    p = handOverSeat(gameId, entrant).catch(() => false);
    handovers.set(gameId, p);
    void p.then((ok) => ok || handovers.delete(gameId));
  }
  return p;
}

function drawYou(t: Live): void {
  const me = stored.entrant;
  const row = me ? t.standings.find((s) => s.playerId === me.playerId) : undefined;
  const withdrawn = Boolean(row?.withdrawn);
  const pairing = me ? t.pairings.find((p) => p.first === me.playerId || p.second === me.playerId) : undefined;
  const play = $<HTMLAnchorElement>("#play-game");
  let status = "";
  play.hidden = true;
  if (me) {
    status = withdrawn ? "You have withdrawn: your results stay, and you are paired no more." : `You are in${row ? ` as ${row.name}` : ""}.`;
    if (!withdrawn && pairing && t.status === "running") {
      if (!pairing.second) status += ` You have a bye in round ${t.round}: it counts 1 point.`;
      else {
        const opponent = nameOf(pairing.first === me.playerId ? pairing.second : pairing.first);
        const order = pairing.first === me.playerId ? "you move first" : "you move second";
        if (!pairing.outcome) {
          status += ` Round ${t.round}: you play ${opponent} (${order}).`;
          play.href = `/play/${encodeURIComponent(pairing.gameId)}`;
          play.dataset.game = pairing.gameId;
          play.hidden = false;
          void handOver(pairing.gameId);
        } else {
          const won = (pairing.outcome === "first") === (pairing.first === me.playerId);
          status += ` Your round ${t.round} game against ${opponent} is over: ${pairing.outcome === "draw" ? "a draw" : won ? "you won" : "you lost"}.`;
          if (t.round < t.rounds) status += " The next round is paired when every game of this one is over.";
        }
      }
    }
    if (t.status === "finished") status += " The tournament is over.";
  }
  $("#you-status").textContent = status;
  $("#join-form").hidden = Boolean(me) || t.status !== "open";
  const profile = storedPlayer();
  $("#join").textContent = profile ? "Join with your profile" : "Join the tournament";
  const confirming = !$("#withdraw-confirm").hidden;
  const canWithdraw = Boolean(me) && !withdrawn && t.status !== "finished";
  $("#withdraw").hidden = !canWithdraw || confirming;
  if (!canWithdraw) $("#withdraw-confirm").hidden = $("#withdraw-cancel").hidden = true;
  const start = $<HTMLButtonElement>("#start");
  start.hidden = !stored.director || t.status !== "open";
  // The service refuses a start with fewer than two entrants; the button says so before anyone tries.
  start.disabled = t.standings.length < 2;
  start.textContent = t.standings.length < 2 ? "Start (needs 2 entrants)" : "Start the tournament";
  // Once entries are closed there is nothing to do here for someone who did not enter.
  $("#you").hidden = !me && t.status !== "open";
  $("#you-h").textContent = me ? "Your place" : stored.director && t.status === "open" ? "Director" : "Join";
}

function draw(t: Live): void {
  live = t;
  drawSummary(t);
  drawPairings(t);
  drawStandings(t);
  drawYou(t);
  document.body.dataset.ready = "true";
}

function fromRoom(s: TournamentRoomState): Live {
  const plain = plainState(s);
  return {
    status: s.status,
    round: s.round,
    rounds: s.rounds,
    format: plain.format ?? view?.format ?? "swiss",
    standings: plain.standings,
    pairings: plain.pairings,
  };
}

// ---- REST: the first paint, and the stand-in while the room is out of reach ---------------------------
type Standings = { status: string; round: number; rounds: number; standings: StandingRow[] };
type Games = { rounds: Array<{ round: number; bye: string | null; games: Array<{ first: string; second: string; gameId: string; outcome: string | null }> }> };

async function readRest(): Promise<void> {
  try {
    const enc = encodeURIComponent(id);
    const [t, s, g] = await Promise.all([
      api<TournamentView>("GET", `/tournaments/${enc}`),
      api<Standings>("GET", `/tournaments/${enc}/standings`),
      api<Games>("GET", `/tournaments/${enc}/games`),
    ]);
    view = t.body;
    // A live room draws fresher state than this read; it only paints when there is none.
    if (conn.live && live) return draw(live);
    const last = g.body.rounds.at(-1);
    const pairings: Pairing[] = (last?.games ?? []).map((x) => ({ first: x.first, second: x.second, gameId: x.gameId, outcome: x.outcome ?? "" }));
    if (last?.bye) pairings.push({ first: last.bye, second: "", gameId: "", outcome: "" });
    draw({ status: s.body.status, round: s.body.round, rounds: s.body.rounds, format: view.format, standings: s.body.standings, pairings });
  } catch (e) {
    if (e instanceof ApiError && e.code === "not_found") return missing();
    if (navigator.onLine) $("#action-error").textContent = `Could not load the tournament: ${errorText(e)}`;
  }
}

// ---- the connection, told as the game page tells it -----------------------------------------------
const LINK_TEXT: Record<LinkState, string> = {
  connecting: "Connecting…",
  live: "",
  dropped: "Connection lost; reconnecting… The standings may be out of date until it is back.",
  offline: "You are offline. The standings may be out of date until the connection is back.",
  closed: "",
};

function onLink(state: LinkState): void {
  const down = state === "offline" || state === "dropped";
  const banner = $("#offline");
  banner.textContent = LINK_TEXT[state];
  banner.hidden = !down;
  $("#connection").textContent = state === "live" ? "Following live." : state === "connecting" ? "Connecting…" : state === "closed" ? "" : "Not connected.";
  document.body.dataset.link = state;
  document.body.dataset.joins = String(conn.joins);
  // While the room is out of reach the REST view stands in; back online, clear the outage's errors.
  if (state === "dropped") void readRest();
  if (state === "live") $("#action-error").textContent = "";
}

const conn = new TournamentConnection(id, {
  state: (s) => {
    const was = live?.status;
    draw(fromRoom(s));
    // The REST view names the format and ruleset; its entrants and status follow the room's.
    if (was && was !== s.status) void readRest();
  },
  link: onLink,
  missing,
});

// ---- actions ---------------------------------------------------------------------------------------
function act(button: HTMLElement, fn: () => Promise<void>): void {
  const out = $("#action-error");
  (button as HTMLButtonElement).disabled = true;
  out.textContent = "";
  void fn()
    .catch((e: unknown) => void (out.textContent = errorText(e)))
    .finally(() => {
      (button as HTMLButtonElement).disabled = false;
      redraw();
    });
}

const redraw = () => live && draw(live);

$<HTMLFormElement>("#join-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  act($("#join"), async () => {
    const name = $<HTMLInputElement>("#join-name").value.trim();
    // As this browser's profile when it has one (seatRequest), else as a new guest by name.
    const out = (
      await seatRequest<{ tournament: TournamentView; playerId: string; playerToken: string }>(
        `/tournaments/${encodeURIComponent(id)}/join`,
        name ? { name } : {},
      )
    ).body;
    stored = saveTournament(id, { entrant: { token: out.playerToken, playerId: out.playerId } });
    view = out.tournament;
    redraw();
    $("#you-status").focus();
  });
});

$("#withdraw").addEventListener("click", () => {
  $("#withdraw").hidden = true;
  $("#withdraw-confirm").hidden = $("#withdraw-cancel").hidden = false;
  $("#withdraw-confirm").focus();
});
$("#withdraw-cancel").addEventListener("click", () => {
  $("#withdraw-confirm").hidden = $("#withdraw-cancel").hidden = true;
  redraw();
});
$("#withdraw-confirm").addEventListener("click", () => {
  act($("#withdraw-confirm"), async () => {
    const token = stored.entrant?.token ?? "";
    view = (await api<TournamentView>("POST", `/tournaments/${encodeURIComponent(id)}/withdraw`, undefined, undefined, { authorization: `Bearer ${token}` }))
      .body;
    $("#withdraw-confirm").hidden = $("#withdraw-cancel").hidden = true;
    if (live) {
      const me = stored.entrant?.playerId;
      draw({ ...live, standings: live.standings.map((s) => (s.playerId === me ? { ...s, withdrawn: true } : s)) });
    }
  });
});

$("#start").addEventListener("click", () => {
  act($("#start"), async () => {
    view = (
      await api<TournamentView>("POST", `/tournaments/${encodeURIComponent(id)}/start`, undefined, undefined, {
        authorization: `Bearer ${stored.director ?? ""}`,
      })
    ).body;
    if (live && live.status === "open") draw({ ...live, status: view.status, round: view.round });
  });
});

// A click before the seat was handed over waits for it, so the game page opens as the seat.
$<HTMLAnchorElement>("#play-game").addEventListener("click", (ev) => {
  const gameId = $("#play-game").dataset.game;
  if (!gameId) return;
  ev.preventDefault();
  const href = $<HTMLAnchorElement>("#play-game").href;
  void handOver(gameId).then(() => location.assign(href));
});

$("#you-status").tabIndex = -1;
const name = storedPlayer()?.name;
if (name) $<HTMLInputElement>("#join-name").value = name;
// The REST read paints first and tells an unknown id, for which no room is asked.
void readRest().then(() => (unknown ? undefined : conn.connect()));
