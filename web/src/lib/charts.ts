// The pages' two charts, drawn as plain SVG (no chart library): a league's forest plot (each bot's rating
// with its 95% interval, ordered) and a player's rating over time. Both are drawn at the width of their
// container, in CSS pixels, so their text stays as large as the page's on a phone; callers redraw on resize.
// Every label is inserted as text (names come from other people).

const NS = "http://www.w3.org/2000/svg";

type SvgAttr = string | number | null | undefined;

export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, SvgAttr> = {},
  ...children: Array<Node | string | null>
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) node.setAttribute(k, String(v));
  for (const c of children) if (c !== null) node.append(c);
  return node;
}

/**
 * Puts a newly drawn chart in `box` in place of the old one; a link of the old chart that had the keyboard's
 * focus passes it to the same link of the new one (the same `attr` value), so a redraw never loses the reader's place.
 */
export function replaceChart(box: HTMLElement, chart: SVGSVGElement, attr: string): void {
  const focused =
    document.activeElement instanceof Element && box.contains(document.activeElement) ? document.activeElement.closest(`[${attr}]`)?.getAttribute(attr) : null;
  box.replaceChildren(chart);
  if (focused) chart.querySelector<SVGAElement>(`[${attr}="${CSS.escape(focused)}"] a, a[${attr}="${CSS.escape(focused)}"]`)?.focus();
}

/** Round figures for an axis from `lo` to `hi`: about `count` steps of 1, 2, 2.5 or 5 times a power of ten. */
export function ticks(lo: number, hi: number, count = 5): number[] {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / count;
  const p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * p).find((s) => s >= raw) ?? raw;
  const out: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) out.push(Math.round(v * 1e6) / 1e6);
  return out;
}

export interface ForestRow {
  id: string;
  name: string;
  rating: number;
  low: number;
  high: number;
  href: string;
}

/** Text width estimate for laying out labels before the SVG is in the page (Inter at 14px: ~7.4px a character). */
const textWidth = (s: string, px = 14): number => s.length * px * 0.53;

/**
 * The forest plot: one row per bot, best first, its name (a link to its profile), a bar over its 95% interval
 * and a dot at its rating, on a shared axis with the mean (0) dashed. Each row's numbers are in its title and
 * data attributes, so what the eye reads is what a screen reader (and a test) reads.
 */
export function forestPlot(rows: readonly ForestRow[], width: number): SVGSVGElement {
  const rowH = 34;
  const top = 8;
  const axisH = 30;
  // The names' column: as wide as the longest name (its text ends 10 px before the plot), at most 38% of the width.
  const nameW = Math.min(Math.max(...rows.map((r) => textWidth(r.name)), 40) + 16, Math.max(90, width * 0.38));
  const right = 16;
  const plotW = Math.max(60, width - nameW - right);
  const lo = Math.min(0, ...rows.map((r) => r.low));
  const hi = Math.max(0, ...rows.map((r) => r.high));
  const pad = (hi - lo) * 0.05 || 10;
  const [x0, x1] = [lo - pad, hi + pad];
  const x = (v: number) => nameW + ((v - x0) / (x1 - x0)) * plotW;
  const height = top + rows.length * rowH + axisH;
  const plot = svg("svg", {
    class: "forest-plot",
    width,
    height,
    viewBox: `0 0 ${width} ${height}`,
    role: "group",
    "aria-label": "Ratings with their 95% intervals, best first",
  });
  for (const t of ticks(x0, x1, Math.max(3, Math.floor(plotW / 70)))) {
    plot.append(
      svg("line", { class: "grid", x1: x(t), x2: x(t), y1: top, y2: top + rows.length * rowH }),
      svg("text", { class: "tick", x: x(t), y: top + rows.length * rowH + 20, "text-anchor": "middle" }, String(t)),
    );
  }
  plot.append(svg("line", { class: "mean", x1: x(0), x2: x(0), y1: top - 4, y2: top + rows.length * rowH }));
  rows.forEach((r, i) => {
    const y = top + i * rowH + rowH / 2;
    const label = `${r.name}: rating ${r.rating}, 95% interval ${r.low} to ${r.high}`;
    plot.append(
      svg(
        "g",
        { class: "row", "data-id": r.id, "data-rating": r.rating, "data-low": r.low, "data-high": r.high },
        svg("title", {}, label),
        // The whole name column of the row is the link's target (at least 24 px square, WCAG 2.5.8).
        svg(
          "a",
          { href: r.href, "aria-label": label },
          svg("rect", { class: "hit", x: 0, y: y - rowH / 2 + 2, width: nameW - 4, height: rowH - 4 }),
          svg("text", { class: "name", x: nameW - 10, y: y + 5, "text-anchor": "end" }, fit(r.name, nameW - 12)),
        ),
        svg("line", { class: "interval", x1: x(r.low), x2: x(r.high), y1: y, y2: y }),
        svg("line", { class: "cap", x1: x(r.low), x2: x(r.low), y1: y - 6, y2: y + 6 }),
        svg("line", { class: "cap", x1: x(r.high), x2: x(r.high), y1: y - 6, y2: y + 6 }),
        svg("circle", { class: "estimate", cx: x(r.rating), cy: y, r: 6 }),
      ),
    );
  });
  return plot;
}

/** A name shortened with an ellipsis to fit `px` (the full name stays in the row's title and label). */
function fit(name: string, px: number): string {
  const max = Math.max(3, Math.floor(px / (14 * 0.53)));
  return name.length <= max ? name : `${name.slice(0, max - 1)}…`;
}

export interface HistoryPoint {
  n: number;
  gameId: string;
  at: string;
  rating: number;
  provisional: boolean;
}

/**
 * The rating over time: one point per rated game (x: the player's game number, y: the rating after it), each a
 * link to the game's replay. The provisional stretch (the first games, while the rating settles) is shaded and
 * its line dashed, with a legend saying so.
 */
export function ratingChart(points: readonly HistoryPoint[], width: number): SVGSVGElement {
  const height = Math.round(Math.min(280, Math.max(200, width * 0.4)));
  const [left, right, top, bottom] = [48, 14, 26, 30];
  const plotW = Math.max(60, width - left - right);
  const plotH = height - top - bottom;
  const ratings = points.map((p) => p.rating);
  const lo = Math.min(...ratings);
  const hi = Math.max(...ratings);
  const pad = Math.max(10, (hi - lo) * 0.1);
  const [y0, y1] = [lo - pad, hi + pad];
  const [n0, n1] = [points[0].n, points[points.length - 1].n];
  const x = (n: number) => left + (n1 === n0 ? plotW / 2 : ((n - n0) / (n1 - n0)) * plotW);
  const y = (r: number) => top + plotH - ((r - y0) / (y1 - y0)) * plotH;
  const chart = svg("svg", {
    class: "rating-chart",
    width,
    height,
    viewBox: `0 0 ${width} ${height}`,
    role: "group",
    "aria-label": "Rating after each rated game",
  });
  const provisional = points.filter((p) => p.provisional);
  if (provisional.length) {
    const last = provisional[provisional.length - 1];
    const next = points[points.indexOf(last) + 1];
    const end = next ? (x(last.n) + x(next.n)) / 2 : x(last.n) + 8;
    const start = Math.max(left, x(provisional[0].n) - 8);
    chart.append(
      svg("rect", { class: "provisional-band", x: start, y: top, width: Math.max(8, end - start), height: plotH }),
      svg("text", { class: "band-label", x: start + 4, y: top - 8 }, "Provisional"),
    );
  }
  for (const t of ticks(y0, y1, 4)) {
    chart.append(
      svg("line", { class: "grid", x1: left, x2: left + plotW, y1: y(t), y2: y(t) }),
      svg("text", { class: "tick", x: left - 6, y: y(t) + 4, "text-anchor": "end" }, String(t)),
    );
  }
  for (const t of ticks(n0, n1, Math.max(2, Math.floor(plotW / 80))).filter((t) => Number.isInteger(t))) {
    chart.append(svg("text", { class: "tick", x: x(t), y: height - 8, "text-anchor": "middle" }, String(t)));
  }
  // The line, dashed while provisional: each segment takes the style of the point it ends at.
  for (let i = 1; i < points.length; i++) {
    const [a, b] = [points[i - 1], points[i]];
    chart.append(svg("line", { class: b.provisional ? "line provisional" : "line", x1: x(a.n), y1: y(a.rating), x2: x(b.n), y2: y(b.rating) }));
  }
  for (const p of points) {
    const label = `Game ${p.n}, ${new Date(p.at).toLocaleDateString()}: rating ${p.rating}${p.provisional ? " (provisional)" : ""}. Open the replay.`;
    chart.append(
      svg(
        "a",
        {
          class: "point",
          href: `/replay/${encodeURIComponent(p.gameId)}`,
          "aria-label": label,
          "data-game": p.gameId,
          "data-rating": p.rating,
          "data-provisional": String(p.provisional),
        },
        svg("title", {}, label),
        // A target of 24 px and more around the 10 px dot (WCAG 2.5.8).
        svg("circle", { class: "hit", cx: x(p.n), cy: y(p.rating), r: 13 }),
        svg("circle", { class: p.provisional ? "dot provisional" : "dot", cx: x(p.n), cy: y(p.rating), r: 5 }),
      ),
    );
  }
  return chart;
}
