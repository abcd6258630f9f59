/**
 * deploy/grafana-dashboard.json charts the server's Prometheus metrics: every metric each panel's query
 * names must be one the server's GET /metrics exports (a renamed metric would leave a panel silently
 * empty), and every metric of the service's own is charted somewhere.
 */
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import type { RunningServer } from "../../src/server";
import { bootServer, http } from "../support/server";

interface Panel {
  title: string;
  targets: Array<{ expr: string }>;
}

/** The metric names a PromQL expression reads (functions, grouping labels, matchers and ranges removed). */
export function metricsOf(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, " ")
    .replace(/\{[^}]*\}/g, " ")
    .replace(/\[[^\]]*\]/g, " ")
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, " ");
  const words = [...bare.matchAll(/[A-Za-z_:][\w:]*(?![\w:]|\s*\()/g)].map((m) => m[0]);
  return words.filter((w) => !["and", "or", "unless", "bool", "offset"].includes(w));
}

describe("Deploy: the Grafana dashboard", function () {
  this.timeout(30_000);
  const dashboard = JSON.parse(readFileSync("deploy/grafana-dashboard.json", "utf8")) as { panels: Panel[] };
  let server: RunningServer;
  let exported: Set<string>;
  before(async () => {
    server = await bootServer();
    const text = (await http(server.url, "GET", "/metrics")).text;
    exported = new Set();
    for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
      exported.add(name);
      if (type === "histogram") for (const s of ["_bucket", "_sum", "_count"]) exported.add(name + s);
      if (type === "summary") for (const s of ["_sum", "_count"]) exported.add(name + s);
    }
  });
  after(async () => {
    await server?.close();
  });

  it("reads the metric names out of PromQL", () => {
    assert.deepEqual(metricsOf('histogram_quantile(0.99, sum by (le, task) (rate(a_seconds_bucket{task="x"}[$__rate_interval])))'), ["a_seconds_bucket"]);
    assert.deepEqual(metricsOf("sum(rate(b_sum[5m])) / sum(rate(b_count[5m]))"), ["b_sum", "b_count"]);
  });

  it("queries only metrics the server exports", () => {
    assert.ok(dashboard.panels.length > 0);
    for (const panel of dashboard.panels) {
      assert.ok(panel.targets.length > 0, panel.title);
      for (const { expr } of panel.targets) {
        const names = metricsOf(expr);
        assert.ok(names.length > 0, `${panel.title}: ${expr} names no metric`);
        for (const name of names) assert.ok(exported.has(name), `${panel.title}: ${name} is not exported by GET /metrics`);
      }
    }
  });

  it("charts every metric of the service's own (the arena_ metrics besides Node's defaults)", () => {
    const charted = new Set(dashboard.panels.flatMap((p) => p.targets.flatMap((t) => metricsOf(t.expr))).map((n) => n.replace(/_(bucket|sum|count)$/, "")));
    const own = [...exported].filter((n) => /^arena_/.test(n) && !/^arena_(process|nodejs)_/.test(n) && !/_(bucket|sum|count)$/.test(n));
    assert.ok(own.length >= 8, own.join());
    for (const name of own) assert.ok(charted.has(name), `${name} has no panel`);
  });
});
