/**
 * Contracts a generator can trust: the checked-in client types are what the served document generates now
 * (openapi-typescript), every operation is described and its integer parameters typed as integers with their
 * ranges, and Redocly's recommended OpenAPI rules find no error in the document.
 */
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { BaseResolver, createConfig, lintDocument, makeDocumentFromString } from "@redocly/openapi-core";
import { openApiDocument } from "../../src/edges/api/openapi/document";
import { clientTypes, TYPES_FILE } from "../../scripts/client-types";
import { CreateChallengeBody } from "../../src/services/agents/schemas";
import { RegisterBotBody } from "../../src/services/bots";
import { CreateGameBody, JoinGameBody, MoveBody } from "../../src/services/games/schemas";

describe("Contract: the OpenAPI document and the generated client types", function () {
  this.timeout(60_000);

  it("matches the checked-in client types (run npx tsx scripts/client-types.ts after an API change)", async () => {
    assert.ok(readFileSync(TYPES_FILE, "utf8") === (await clientTypes()), "clients/typescript/api-types.ts is out of date");
  });

  it("gives the main operations request examples that their own schemas accept", () => {
    const doc = openApiDocument("http://localhost:2567") as unknown as {
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, { example?: unknown }> } }>>;
    };
    const example = (path: string) => doc.paths[path].post.requestBody?.content["application/json"].example;
    const cases = [
      ["/games", CreateGameBody],
      ["/games/join", JoinGameBody],
      ["/games/{id}/moves", MoveBody],
      ["/bots", RegisterBotBody],
      ["/agent/challenge", CreateChallengeBody],
    ] as const;
    for (const [path, schema] of cases) assert.ok(schema.safeParse(example(path)).success, `${path} has a valid example`);
  });

  it("gives every operation a summary and a description, and types every number-like parameter as an integer with its range", () => {
    type Param = { name: string; in: string; schema?: { type?: string; pattern?: string; minimum?: number; maximum?: number } };
    const doc = openApiDocument("http://localhost:2567") as unknown as {
      paths: Record<string, Record<string, { summary?: string; description?: string; parameters?: Param[] }>>;
    };
    const missing: string[] = [];
    const untyped: string[] = [];
    let operations = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        operations++;
        if (!op.summary?.trim() || !op.description?.trim()) missing.push(`${method} ${path}`);
        for (const p of op.parameters ?? []) {
          const s = p.schema ?? {};
          // A string parameter whose pattern is digits alone is an integer in disguise (a month, YYYY-MM, is not).
          if (s.type === "string" && s.pattern && /^\^?(\\d|\[0-9\])(\{\d+(,\d*)?\}|[+*?])?\$?$/.test(s.pattern)) untyped.push(`${method} ${path} ${p.name}`);
          if (s.type === "integer" && (s.minimum === undefined || s.maximum === undefined)) untyped.push(`${method} ${path} ${p.name} (no range)`);
        }
      }
    }
    assert.ok(operations > 50, `${operations} operations`);
    assert.deepEqual(missing, [], "operations without a summary or a description");
    assert.deepEqual(untyped, [], "number-like parameters not typed as integers with a range");
  });

  it("passes Redocly's recommended rules with no error", async () => {
    const source = JSON.stringify(openApiDocument("http://localhost:2567"));
    const config = await createConfig({ extends: ["recommended"] });
    const problems = await lintDocument({ document: makeDocumentFromString(source, "openapi.json"), config, externalRefResolver: new BaseResolver() });
    const errors = problems.filter((p) => p.severity === "error").map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    assert.deepEqual(errors, []);
  });
});
