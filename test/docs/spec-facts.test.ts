/**
 * Facts the reference docs state about lists the code owns: the MCP rules resources (one per rules version)
 * and the seat kinds game.started carries. Derived from the code, so a new version or kind fails here first.
 */
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { PublicSeatSchema } from "../../src/services/events/catalog";
import { RULES_VERSIONS } from "../../src/engine";
import { RULES_URI } from "../../src/edges/mcp/rules";

const flat = (file: string) => readFileSync(file, "utf8").replace(/\s+/g, " ");

describe("Docs: reference lists match the code", () => {
  it("docs/MCP.md lists a rules resource for every rules version", () => {
    const m = /`tile-arena:\/\/rules\/\{([\d,]+)\}`/.exec(flat("docs/MCP.md"));
    assert.ok(m, "docs/MCP.md names the versioned rules resources");
    assert.equal(RULES_URI, "tile-arena://rules");
    assert.deepEqual(m[1].split(",").map(Number), [...RULES_VERSIONS]);
  });

  it("docs/EVENTS.md gives every seat kind game.started carries", () => {
    const m = /`game\.started`: .*?`kind` (.*?); null for a seat nobody holds/.exec(flat("docs/EVENTS.md"));
    assert.ok(m, "docs/EVENTS.md describes game.started's kind");
    const stated = [...m[1].matchAll(/`(\w+)`/g)].map((k) => k[1]);
    const kinds = PublicSeatSchema.unwrap().shape.kind.options;
    assert.deepEqual([...stated].sort(), [...kinds].sort());
  });
});
