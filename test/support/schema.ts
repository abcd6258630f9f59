/** JSON Schema helpers for tests that hold real answers against published schemas. */

/**
 * The schema with every object that lists `properties` and says nothing about others closed
 * (`additionalProperties: false`), so a member the schema does not name fails validation. Objects a
 * schema leaves open on purpose (`additionalProperties: {}`) stay open.
 */
export function closed(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closed);
  if (node === null || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    out[k] = k === "properties" ? Object.fromEntries(Object.entries(v as object).map(([p, s]) => [p, closed(s)])) : closed(v);
  }
  if ("properties" in out && !("additionalProperties" in out)) out.additionalProperties = false;
  return out;
}
