/** RFC 8785 (JCS) canonical JSON: the RFC's own examples. */
import assert from "node:assert/strict";
import { canonicalJson } from "../../src/services/log/canonical";

describe("canonicalJson (RFC 8785)", function () {
  it("serialises the RFC's example (section 3.2.2) exactly", function () {
    const input = JSON.parse(
      '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001], "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/", "literals": [null, true, false]}',
    );
    assert.equal(
      canonicalJson(input),
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it("sorts members by their names' UTF-16 code units (section 3.2.3)", function () {
    const input = { "\u20ac": 1, "\r": 2, "\ufb33": 3, "1": 4, "\ud83d\ude00": 5, "\u0080": 6, "\u00f6": 7 };
    const order = Object.keys(JSON.parse(canonicalJson(input)) as object);
    // JSON.parse keeps "1" first (an integer-like key); compare the text instead.
    assert.equal(canonicalJson(input), '{"\\r":2,"1":4,"\u0080":6,"ö":7,"€":1,"😀":5,"דּ":3}');
    assert.equal(order.length, 7);
  });

  it("leaves out undefined members and refuses what JSON cannot hold", function () {
    assert.equal(canonicalJson({ b: 1, a: undefined, c: [undefined] }), '{"b":1,"c":[null]}');
    assert.throws(() => canonicalJson({ x: Number.NaN }), TypeError);
    assert.throws(() => canonicalJson("\ud800"), TypeError);
  });
});
