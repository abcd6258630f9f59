/**
 * The accessibility checks the page tests share: a page fits a phone (390x844) and a laptop (1280x800) without
 * sideways scrolling, with its header on one line and its targets large enough, and its text at a contrast of
 * at least 4.5:1 (WCAG AA) against what is behind it.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";

/** The lowest contrast ratio of any text in `selector` against the first opaque background behind it. */
export function lowestContrast(selector: string): { ratio: number; where: string } {
  const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
  const lum = ([r, g, b]: number[]) => {
    const ch = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * ch(r) + 0.7152 * ch(g) + 0.0722 * ch(b);
  };
  const background = (node: Element | null): number[] => {
    for (let n = node; n; n = n.parentElement) {
      const c = rgb(getComputedStyle(n).backgroundColor);
      if (c.length >= 3 && (c.length < 4 || c[3] > 0.5)) return c;
    }
    return [255, 255, 255];
  };
  // SVG text is painted with `fill`, other text with `color`.
  const ink = (node: Element) => (node instanceof SVGElement ? getComputedStyle(node).fill : getComputedStyle(node).color);
  let worst = { ratio: Infinity, where: "" };
  const root = document.querySelector(selector)!;
  for (const node of [root, ...root.querySelectorAll("*")]) {
    const own = [...node.childNodes].filter((c) => c.nodeType === Node.TEXT_NODE && c.textContent!.trim()).length > 0;
    if (!own || node.closest("title")) continue;
    const [a, b] = [lum(rgb(ink(node))), lum(background(node))];
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    if (ratio < worst.ratio) worst = { ratio, where: `${node.getAttribute("class") || node.tagName}: "${node.textContent}"` };
  }
  return worst;
}

/** Asserts `lowestContrast(selector)` is at least 4.5:1. */
export async function contrastAtLeast(page: Page, selector: string, what: string): Promise<number> {
  // The test runner compiles named inner functions with esbuild's __name helper, which the page lacks.
  await page.evaluate("globalThis.__name = (f) => f");
  const worst = await page.evaluate(lowestContrast, selector);
  assert.ok(worst.ratio >= 4.5, `${what}: contrast ${worst.ratio.toFixed(2)} at ${worst.where}`);
  return worst.ratio;
}

/**
 * No horizontal scrolling, the header on one line, and every button and link in the header and the page at
 * least 40 px tall (and wide, but for links in text); a link drawn in a chart (SVG) at least 24 by 24 px
 * (WCAG 2.5.8), with the chart's text alternative beside it.
 */
export async function fits(page: Page, what: string): Promise<void> {
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    await page.setViewportSize(viewport);
    // Two frames: what the page redraws for the new size (its charts) is drawn before it is measured.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `${what} at ${viewport.width}px scrolls sideways by ${overflow}px`);
    // The header's links stay on one line (a taller header would push the game page's board down).
    const header = await page.locator("header.top").boundingBox();
    assert.ok(header && header.height <= 64, `${what} at ${viewport.width}px: header ${header?.height}px tall`);
    const small = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement | SVGAElement>("header a, main button, main a, main input, main select")]
        .filter((e) => (e instanceof SVGElement ? e.getBoundingClientRect().width > 0 : e.offsetParent !== null) && !e.closest("[hidden]"))
        .map((e) => {
          const r = e.getBoundingClientRect();
          const what = e.id || e.textContent?.trim() || e.getAttribute("aria-label") || e.tagName;
          if (e instanceof SVGElement) return { what, h: r.height, w: r.width, min: 24 };
          // Links inside text (a name in the table) are 40 px tall; buttons and the header's links are 40 px wide too.
          return { what, h: r.height, w: e.closest("header, button, .button") ? r.width : 40, min: 40 };
        })
        .filter((b) => b.h < b.min || b.w < b.min),
    );
    assert.deepEqual(small, [], `${what} at ${viewport.width}px: targets too small`);
  }
  await page.setViewportSize({ width: 1100, height: 900 });
}
