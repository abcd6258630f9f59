/**
 * The API reference page in a real browser (Debian's Chromium through playwright-core): Swagger UI, loaded
 * from this service only, renders every operation of the served OpenAPI document, with no script error and
 * no request to another origin; it and the other docs pages carry the site's header with the web pages' links.
 */
import { strict as assert } from "node:assert";
import type { Browser } from "playwright-core";
import type { RunningServer } from "../../src/server";
import { bootServer, http } from "../support/server";
import { launch, openPage, skipWithoutChromium } from "../web/browser";

describe("Browser: the API reference at /docs", function () {
  this.timeout(60_000);
  let server: RunningServer;
  let browser: Browser;
  before(async function () {
    skipWithoutChromium(this);
    server = await bootServer();
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it("renders every documented operation from the served document, from this origin only", async () => {
    const doc = (await http(server.url, "GET", "/api/v1/openapi.json")).json as { paths: Record<string, Record<string, { operationId: string }>> };
    const operations = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((o) => o.operationId));
    const errors: string[] = [];
    const page = await openPage(browser, errors);
    const foreign: string[] = [];
    page.on("request", (r) => {
      if (!r.url().startsWith(server.url) && !r.url().startsWith("data:")) foreign.push(r.url());
    });
    page.on("response", (r) => {
      if (r.status() >= 400) errors.push(`${r.status()} ${r.url()}`);
    });
    await page.goto(`${server.url}/docs`);
    await page.waitForSelector(".opblock", { timeout: 30_000 });
    const rendered = await page.locator(".opblock").count();
    assert.equal(rendered, operations.length, `rendered ${rendered} operations, the document has ${operations.length}`);
    assert.match((await page.textContent(".info .title")) ?? "", /Tile Arena API/);
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
  });

  it("carries the site's header with the web pages' links, Leagues and Bots among them", async () => {
    const errors: string[] = [];
    const page = await openPage(browser, errors);
    const links = async (path: string, selector: string) => {
      await page.goto(`${server.url}${path}`);
      return page.locator(selector).evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute("href")]));
    };
    const site = await links("/leagues", "header.top nav a");
    for (const path of ["/docs", "/docs/errors"]) {
      const header = page.locator("header.site");
      assert.deepEqual(await links(path, "header.site nav a"), site, path);
      assert.equal(await header.getByRole("link", { name: "Leagues", exact: true }).getAttribute("href"), "/leagues");
      assert.equal(await header.getByRole("link", { name: "Bots", exact: true }).getAttribute("href"), "/bots");
    }
    assert.deepEqual(errors, []);
  });
});
