import assert from "node:assert/strict";
import { openStore, safeEqualHex, sha256Hex } from "../../src/store";
import { SqliteStore } from "../../src/store/sqlite";

describe("Unit: store helpers", function () {
  it("hashes text to lowercase sha256 hex", function () {
    assert.equal(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it("compares equal hex digests as equal and different ones as not", function () {
    const h = sha256Hex("pt_secret");
    assert.equal(safeEqualHex(h, sha256Hex("pt_secret")), true);
    assert.equal(safeEqualHex(h, sha256Hex("pt_other")), false);
  });

  it("returns false rather than throwing when the lengths differ", function () {
    assert.equal(safeEqualHex("abcd", "abc"), false);
    assert.equal(safeEqualHex("", sha256Hex("x")), false);
  });

  it("opens an initialised SQLite store when no MongoDB url is given", async function () {
    const store = await openStore({ database: ":memory:" });
    try {
      assert.ok(store instanceof SqliteStore);
      assert.equal(await store.games.getGame("none"), null);
    } finally {
      await store.close();
    }
  });
});
