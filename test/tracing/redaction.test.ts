/**
 * Capabilities never reach the trace collector or the logs: the paths that carry an agent challenge's token,
 * and any seat token, bot key or webhook secret in a span's attributes or a log line, are written redacted.
 * The test runs the traced routes with an in-memory exporter and a logger that keeps its lines, then scans
 * every span (name, attributes, events) and every line for the tokens it used.
 */
import { strict as assert } from "node:assert";
import { InMemorySpanExporter, type ReadableSpan } from "@opentelemetry/sdk-trace";
import { generateSecret } from "../../src/services/events/index";
import { createLogger } from "../../src/shared/logger";
import type { RunningServer } from "../../src/server";
import { bearer, bootServer, eventually, http } from "../support/server";

/** Every text a span hands the collector. */
function texts(span: ReadableSpan): string[] {
  const values = (attrs: Record<string, unknown> | undefined) => Object.values(attrs ?? {}).map((v) => (Array.isArray(v) ? v.join(" ") : String(v)));
  return [span.name, span.status.message ?? "", ...values(span.attributes), ...span.events.flatMap((e) => [e.name, ...values(e.attributes)])];
}

/** The texts that hold a secret, or any 12 characters in a row of one (a capability cut short leaks too). */
function leaks(haystack: string[], secrets: string[]): string[] {
  const pieces = secrets.flatMap((s) => {
    const random = s.slice(s.indexOf("_") + 1);
    return Array.from({ length: Math.max(1, random.length - 11) }, (_, i) => random.slice(i, i + 12));
  });
  return haystack.filter((text) => pieces.some((p) => text.includes(p)));
}

describe("Redaction: capabilities stay out of traces and logs", function () {
  this.timeout(30_000);

  it("writes no token or secret given to the logger, in fields, messages or errors", () => {
    const lines: string[] = [];
    const log = createLogger("debug", { write: (l: string) => void lines.push(l) });
    const used = ["pt_" + "a".repeat(43), "ch_" + "b".repeat(24), "bk_" + "c".repeat(43), generateSecret()];
    log.info({ path: `/api/v1/agent/challenge/${used[1]}`, who: used[0] }, `bot ${used[2]} called`);
    log.warn({ err: new Error(`callback refused the secret ${used[3]}`) }, "failed");
    log.error({ detail: { headers: { authorization: `Bearer ${used[0]}` } } }, "refused");
    assert.equal(lines.length, 3);
    assert.deepEqual(leaks(lines, used), []);
    assert.ok(lines[0].includes("/api/v1/agent/challenge/ch_[redacted]"), lines[0]);
    assert.ok(lines[0].includes("bot bk_[redacted] called"), "what was there stays readable");
  });

  describe("a server traced into memory and logging into a list", () => {
    const exporter = new InMemorySpanExporter();
    const lines: string[] = [];
    let server: RunningServer;
    before(async () => {
      server = await bootServer({}, { spanExporter: exporter, log: createLogger("debug", { write: (l: string) => void lines.push(l) }) });
    });
    after(async () => {
      await server?.close();
    });

    it("exports no agent-challenge token, seat token, bot key or webhook secret in any span, and logs none", async () => {
      const used: string[] = [];
      const created = await http(server.url, "POST", "/api/v1/agent/challenge", { agent: { name: "trace-bot" }, level: "easy" });
      assert.equal(created.status, 201, created.text);
      const token = created.json.token as string;
      used.push(token);
      assert.equal((await http(server.url, "GET", `/api/v1/agent/challenge/${token}`)).status, 200);
      const accepted = await http(server.url, "POST", `/api/v1/agent/challenge/${token}/accept`, { name: "Ada" });
      assert.equal(accepted.status, 200, accepted.text);
      const seat = accepted.json.playerToken as string;
      used.push(seat);
      await http(server.url, "GET", `/api/v1/games/${accepted.json.gameId ?? accepted.json.game?.id}/sync?since=0`, undefined, bearer(seat));
      assert.equal((await http(server.url, "GET", `/challenge/${token}`)).status, 200, "the web page of the challenge");
      const bot = await http(server.url, "POST", "/api/v1/bots", { name: "TraceBot" });
      assert.equal(bot.status, 201, bot.text);
      used.push(bot.json.key as string);
      assert.equal((await http(server.url, "GET", "/api/v1/bots/me", undefined, bearer(bot.json.key))).status, 200);
      // Capabilities where no route expects them: in a path that answers 404.
      const secret = generateSecret();
      used.push(secret, encodeURIComponent(secret));
      for (const stray of [seat, bot.json.key as string, encodeURIComponent(secret)]) await http(server.url, "GET", `/api/v1/games/${stray}`);
      const requests = 9;
      await eventually(
        () => exporter.getFinishedSpans().filter((s) => s.attributes["url.path"] !== undefined).length >= requests,
        "every request's span",
        5000,
      );

      const spans = exporter.getFinishedSpans();
      assert.deepEqual(leaks(spans.flatMap(texts), used), [], "no span carries a capability");
      assert.deepEqual(leaks(lines, used), [], "no log line carries a capability");
      const paths = spans.map((s) => s.attributes["url.path"]).filter((p) => typeof p === "string");
      assert.ok(paths.includes("/api/v1/agent/challenge/[redacted]/accept"), `the path keeps its shape: ${paths.join(", ")}`);
      assert.ok(paths.includes("/api/v1/games/pt_[redacted]"), "a seat token in a path keeps its prefix");
    });
  });
});
