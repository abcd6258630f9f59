// The replay and review pages (/replay/{id}, /review/{id}): the board after each move, a clickable move
// list with the review's marks, arrow-key stepping, each capture explained, and the deal checked in the
// browser: sha256(seed:salt) recomputed with Web Crypto against the commitment published at the start.
import { $, api, ApiError, el, errorText, plural, seatHeaders } from "../lib/api";
import type { GameRecord, Replay, Review } from "../lib/api-types";
import { botMark } from "../lib/bot-mark";
import { drawBoard } from "../lib/board";
import { UNVERSIONED } from "../../../src/engine/versions";
import { explainCaptures, ruleContext } from "../lib/captures";
import { MUTATOR_TIPS } from "../lib/glossary";
import { showLogProof } from "../lib/log-badge";
import { boardFromCells, decidedText, type Seat, type Tile, type ViewModel } from "../lib/model";
import { enableTouchTips } from "../lib/touch-tips";

const gameId = decodeURIComponent(location.pathname.split("/")[2] || "");
const id = encodeURIComponent(gameId);

function message(...parts: Array<Node | string>): void {
  $("#message").replaceChildren(...parts);
  $("#message").hidden = false;
}

/** Hex sha256 of text by Web Crypto; null where the browser offers none (an insecure origin). */
async function sha256Hex(text: string): Promise<string | null> {
  if (!globalThis.crypto?.subtle) return null;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function verifyDeal(r: Replay): Promise<void> {
  const out = $("#verify");
  const hash = await sha256Hex(`${r.seed}:${r.salt}`);
  if (hash === null) return void out.replaceChildren(el("span", { class: "muted", text: "This browser cannot check it here (Web Crypto needs HTTPS)." }));
  const ok = hash === r.commitment;
  out.replaceChildren(
    el("span", { class: ok ? "verified" : "unverified", text: ok ? "✔ deal verified" : "✘ the seed does not match the commitment" }),
    el("br"),
    el("span", {
      class: "muted small",
      text: ok ? "sha256(seed:salt), computed in your browser, equals the commitment published when the game began." : `sha256(seed:salt) is ${hash}.`,
    }),
  );
  out.dataset.verified = String(ok);
}

const MARK_TEXT: Record<string, string> = { best: "best", good: "", inaccuracy: "?!", mistake: "?", blunder: "??" };
/** The legend's words for each mark (src/services/ai/review.ts: the swing bounds, here in cards). */
const MARK_MEANING: Array<[string, string]> = [
  ["best", "the best move found"],
  ["inaccuracy", "inaccuracy: ½ to 1¼ cards given away"],
  ["mistake", "mistake: 1¼ to 2¼ cards"],
  ["blunder", "blunder: 2¼ cards or more"],
];

/**
 * A swing on the review's scale, in cards: the review measures score difference, where one flipped card
 * moves it by 2, so a swing of 3 is 1.5 cards given away (docs/WEB.md, "Review").
 */
const cards = (swing: number): string => {
  const c = Math.round((swing / 2) * 10) / 10;
  return `${c} card${c === 1 ? "" : "s"}`;
};

function legend(): HTMLElement {
  return el(
    "p",
    { id: "legend", class: "legend small" },
    ...MARK_MEANING.flatMap(([mark, meaning]) => [
      el("span", { class: "legend-item" }, el("span", { class: `mark ${mark}`, text: MARK_TEXT[mark] }), ` ${meaning}`),
    ]),
  );
}

/**
 * The evaluation graph: the score difference (A's cards minus B's) after each move, as an SVG line over the
 * moves, with a dot in the mark's colour on every reviewed move that gave cards away; a click steps there.
 */
function graph(r: Replay, review: Review | null, onStep: (step: number) => void): SVGSVGElement {
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(NS, "svg");
  const [w, h, pad] = [320, 90, 6];
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.setAttribute("class", "eval-graph");
  svg.setAttribute("role", "img");
  const diffs = [0, ...r.moves.map((m) => m.score.A - m.score.B)];
  svg.setAttribute("aria-label", `Score difference A minus B after each move: ${diffs.slice(1).join(", ")}`);
  const max = Math.max(4, ...diffs.map(Math.abs));
  const x = (i: number) => pad + ((w - 2 * pad) * i) / Math.max(1, diffs.length - 1);
  const y = (d: number) => h / 2 - ((h / 2 - pad) * d) / max;
  const add = (tag: string, attrs: Record<string, string | number>) => {
    const node = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    svg.append(node);
    return node;
  };
  add("rect", { x: 0, y: 0, width: w, height: h / 2, class: "eval-a" });
  add("rect", { x: 0, y: h / 2, width: w, height: h / 2, class: "eval-b" });
  add("line", { x1: 0, x2: w, y1: h / 2, y2: h / 2, class: "eval-axis" });
  add("polyline", { points: diffs.map((d, i) => `${x(i)},${y(d)}`).join(" "), class: "eval-line" });
  for (const [i, m] of r.moves.entries()) {
    const rv = review?.moves.find((v) => v.n === m.n);
    const marked = rv && ["inaccuracy", "mistake", "blunder"].includes(rv.mark);
    const dot = add("circle", { cx: x(i + 1), cy: y(diffs[i + 1]), r: marked ? 4.5 : 2.5, class: `eval-dot ${marked ? rv.mark : ""}`, "data-step": i + 1 });
    const title = document.createElementNS(NS, "title");
    title.textContent = `Move ${m.n}: ${m.seat} ${m.notation}, A ${m.score.A} – B ${m.score.B}${marked ? ` (${rv.mark}, ${cards(rv.swing)} given away)` : ""}`;
    dot.append(title);
    dot.addEventListener("click", () => onStep(i + 1));
  }
  return svg;
}

function start(r: Replay, review: Review | null, record: GameRecord | null): void {
  const tiles: Tile[] = r.chessTiles.map((t) => ({ square: t.square, kind: t.piece }));
  const elements: Tile[] = r.squareElements.map((t) => ({ square: t.square, kind: t.element }));
  const empty: ViewModel["board"] = new Map();
  const boards: ViewModel["board"][] = [empty, ...r.moves.map((m) => boardFromCells(m.board))];
  const rules = ruleContext(tiles, elements, r.mutators, r.rulesVersion ?? UNVERSIONED);
  const name = (s: Seat) => r.players[s] || s;
  document.title = `${name("A")} vs ${name("B")} · Replay · Tile Arena`;
  $("#title").textContent = `${name("A")} vs ${name("B")}: replay`;
  // The replay names the seats; the game's record says which of them is a bot.
  for (const s of ["A", "B"] as const) $(`#seat-${s}`).replaceChildren(name(s), botMark(record?.players[s]?.kind) ?? "", ` · ${r.champions[s]}`);
  $("#ruleset").replaceChildren(
    r.ruleset,
    ...r.mutators.flatMap((mu, i) => [i === 0 ? " (" : ", ", el("abbr", { title: MUTATOR_TIPS[mu] ?? mu, text: mu })]),
    r.mutators.length ? ")" : "",
  );
  const winner = r.winner === "draw" ? "draw" : r.winner ? `${name(r.winner)} (${r.winner}) won` : "no winner";
  $("#result").textContent = `${winner}, ${r.score.A}–${r.score.B}: ${decidedText(r.decidedBy)}`;
  $("#seed").textContent = String(r.seed);
  $("#commitment").textContent = r.commitment;
  $<HTMLAnchorElement>("#json-link").href = `/api/v1/games/${id}/replay`;
  if (review) {
    // A seat that never moved has no accuracy to speak of (an aborted game), not 100%.
    const sum = (s: Seat) =>
      review.moves.some((m) => m.seat === s)
        ? `${s} ${review.summary[s].accuracy}% (${plural(review.summary[s].mistakes, "mistake")}, ${plural(review.summary[s].blunders, "blunder")})`
        : `${s} made no move`;
    $("#review-summary").textContent = `accuracy ${sum("A")} · ${sum("B")}`;
  }

  const list = $("#move-list");
  const rows: HTMLElement[] = [];
  const buttons = r.moves.map((m, i) => {
    const rv = review?.moves.find((x) => x.n === m.n);
    const mark = rv ? (MARK_TEXT[rv.mark] ?? "") : "";
    const b = el(
      "button",
      {
        type: "button",
        class: `seat-${m.seat}`,
        "data-step": i + 1,
        "data-mark": rv?.mark,
        title: rv && rv.best !== rv.played ? `Best: ${rv.best} (${cards(rv.swing)} given away)` : rv ? "The best move found" : undefined,
      },
      el("span", { class: `seat-tag ${m.seat}`, text: m.seat }),
      ` ${m.notation}`,
      mark ? el("span", { class: `mark ${rv!.mark}`, text: mark }) : null,
      rv && rv.best !== rv.played && rv.mark !== "good" ? el("span", { class: "alt small", text: ` best ${rv.best}` }) : null,
    );
    b.addEventListener("click", () => show(i + 1));
    // Paired by turn, as in chess notation: the first mover's move, then the reply, on one numbered row.
    if (i % 2 === 0) {
      const row = el("li", {}, el("span", { class: "n", "aria-hidden": "true", text: `${i / 2 + 1}.` }));
      rows.push(row);
      list.append(row);
    }
    rows[rows.length - 1].append(b);
    return b;
  });
  $("#legend-slot").replaceChildren(...(review ? [legend()] : []));
  $("#graph-slot").replaceChildren(graph(r, review, (step) => show(step)));

  let at = r.moves.length;
  function show(step: number): void {
    at = Math.max(0, Math.min(r.moves.length, step));
    const m = at > 0 ? r.moves[at - 1] : null;
    const reasons = m ? explainCaptures(boards[at - 1], rules, m.card, m.square, m.seat) : [];
    drawBoard($("#board"), boards[at], tiles, elements, { last: m?.square, flipped: reasons.map((x) => x.square) });
    $("#step-label").textContent = m
      ? `Move ${m.n} of ${r.moves.length}: ${name(m.seat)} (${m.seat}) played ${m.name}, ${m.notation}`
      : `Start: ${name(r.firstPlayer)} (${r.firstPlayer}) moves first`;
    const score = m?.score ?? { A: 0, B: 0 };
    $("#score-a").textContent = `A ${score.A}`;
    $("#score-b").textContent = `B ${score.B}`;
    const rv = m && review?.moves.find((x) => x.n === m.n);
    $("#captures").replaceChildren(
      ...(m
        ? [
            reasons.length
              ? el("ul", {}, ...reasons.map((x) => el("li", { text: x.text, "data-by": x.by })))
              : el("span", { class: "muted", text: "No capture." }),
          ]
        : []),
      ...(rv
        ? [
            el("p", {
              class: "small",
              text:
                rv.best === rv.played ? `Review: ${rv.mark}, the best move found.` : `Review: ${rv.mark}; best was ${rv.best} (${cards(rv.swing)} given away).`,
            }),
          ]
        : []),
    );
    buttons.forEach((b, i) => (i + 1 === at ? b.setAttribute("aria-current", "step") : b.removeAttribute("aria-current")));
    const current = buttons[at - 1];
    if (current) current.parentElement!.parentElement!.scrollTop = Math.max(0, current.offsetTop - 80);
    for (const dot of document.querySelectorAll(".eval-dot")) dot.classList.toggle("current", (dot as SVGElement).dataset.step === String(at));
    document.body.dataset.step = String(at);
  }

  $("#first").addEventListener("click", () => show(0));
  $("#prev").addEventListener("click", () => show(at - 1));
  $("#next").addEventListener("click", () => show(at + 1));
  $("#last").addEventListener("click", () => show(r.moves.length));
  addEventListener("keydown", (ev) => {
    const to = ev.key === "ArrowLeft" ? at - 1 : ev.key === "ArrowRight" ? at + 1 : ev.key === "Home" ? 0 : ev.key === "End" ? r.moves.length : null;
    if (to === null || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    ev.preventDefault();
    show(to);
  });
  $("#replay").hidden = false;
  // The review page opens on the first move, the replay on the final position.
  show(location.pathname.startsWith("/review/") ? 1 : r.moves.length);
  void verifyDeal(r).catch((e: unknown) => void ($("#verify").textContent = `Could not check: ${errorText(e)}`));
  showLogProof($("#log-proof"), gameId, record);
}

async function load(): Promise<void> {
  let r: Replay;
  try {
    r = (await api<Replay>("GET", `/games/${id}/replay`, undefined, undefined, seatHeaders(gameId))).body;
  } catch (e) {
    // A finished league game stays sealed while the other game of its deal (the same seed) is played.
    if (e instanceof ApiError && e.code === "game_not_finished" && e.message.includes("league deal")) {
      return message("The other game of this league deal is still being played: the replay opens once both have finished.");
    }
    if (e instanceof ApiError && e.code === "game_not_finished")
      return message("This game is still being played. ", el("a", { href: `/watch/${id}`, text: "Watch it live" }));
    if (e instanceof ApiError && e.code === "not_found") return message("There is no game with this id.");
    return message(`Could not load the replay: ${errorText(e)}`);
  }
  // The review is a nice-to-have: the replay is shown without its marks when it cannot be had.
  const [review, record] = await Promise.all([
    api<Review>("GET", `/games/${id}/review`, undefined, undefined, seatHeaders(gameId)).then(
      (x) => x.body,
      () => null,
    ),
    api<GameRecord>("GET", `/games/${id}`, undefined, undefined, seatHeaders(gameId)).then(
      (x) => x.body,
      () => null,
    ),
  ]);
  start(r, review, record);
}

void load();
enableTouchTips();
