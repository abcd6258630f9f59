/**
 * RFC 8785 JSON Canonicalization Scheme (JCS) for the values a log entry holds: object members sorted by
 * their names' UTF-16 code units, no whitespace, numbers and strings as ECMAScript's JSON.stringify writes
 * them (which is what JCS specifies). Members whose value is undefined are left out, as JSON.stringify does.
 * No package in the dependency tree does this, and the subset a log entry needs is this small.
 */

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function canonicalJson(value: unknown): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "boolean":
      return value ? "true" : "false";
    case "number":
      if (!Number.isFinite(value)) throw new TypeError("canonicalJson: a number must be finite");
      return JSON.stringify(value);
    case "string":
      // I-JSON (RFC 7493), which JCS builds on, has no lone surrogates: they have no UTF-8 form.
      if (LONE_SURROGATE.test(value)) throw new TypeError("canonicalJson: a string holds a lone surrogate");
      return JSON.stringify(value);
    case "object": {
      if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(",")}]`;
      const o = value as Record<string, unknown>;
      const keys = Object.keys(o)
        .filter((k) => o[k] !== undefined)
        .sort();
      return `{${keys.map((k) => `${canonicalJson(k)}:${canonicalJson(o[k])}`).join(",")}}`;
    }
    case "bigint":
    case "function":
    case "symbol":
    case "undefined":
      break;
  }
  throw new TypeError(`canonicalJson: a ${typeof value} has no JSON form`);
}

/** The canonical form's UTF-8 bytes: what a leaf hashes. */
export const canonicalBytes = (value: unknown): Buffer => Buffer.from(canonicalJson(value), "utf8");
