/** A log entry: the public finished record of a game, its leaf, and the check every verifier runs on it. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import Ajv from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { canonicalJson } from "../../src/services/log/canonical";
import { checkEntry } from "../../src/services/log/check";
import { gameEntryOf, leafOf, privateEntryOf } from "../../src/services/log/entry";
import { leafHash } from "../../src/services/log/merkle";
import { playedGame } from "./fixtures";

describe("Log entries", function () {
  it("hold a finished game's public record, which re-simulates to the result it states", function () {
    for (let n = 0; n < 8; n++) {
      const { record, actions } = playedGame(n);
      const e = gameEntryOf(record, [...actions].reverse());
      assert.equal(e.gameId, record.id);
      assert.deepEqual(
        e.actions,
        actions.map((a) => a.action),
        "in index order whatever order they came in",
      );
      assert.equal(e.seed, record.seed);
      assert.equal(e.decidedBy, record.decidedBy);
      assert.deepEqual(checkEntry(e), { ok: true }, `game ${n}`);
    }
  });

  it("fails the check when the seed, an action or the result was changed", function () {
    const { record, actions } = playedGame(1);
    const e = gameEntryOf(record, actions);
    assert.equal((checkEntry({ ...e, seed: 7 }) as { field: string }).field, "commitment");
    assert.equal((checkEntry({ ...e, winner: e.winner === "A" ? "B" : "A" }) as { field: string }).field, "winner");
    assert.equal((checkEntry({ ...e, actions: e.actions.slice(0, -1) }) as { field: string }).field, "actions");
  });

  it("keeps a seed that is a string (rules from version 4) as it is", function () {
    const { record, actions } = playedGame(2);
    const e = gameEntryOf({ ...record, seed: "00ff00ff00ff00ff00ff00ff00ff00ff" }, actions);
    assert.equal(e.seed, "00ff00ff00ff00ff00ff00ff00ff00ff");
    assert.match(canonicalJson(e), /"seed":"00ff00ff00ff00ff00ff00ff00ff00ff"/);
  });

  it("hashes the canonical JSON as the leaf, so the key order of a copy does not matter", function () {
    const { record, actions } = playedGame(3);
    const e = gameEntryOf(record, actions);
    const reordered = JSON.parse(JSON.stringify(Object.fromEntries(Object.entries(e).reverse()))) as typeof e;
    const leaf = leafOf(e);
    assert.deepEqual(leafOf(reordered).hash, leaf.hash);
    assert.deepEqual(leaf.hash, leafHash(Buffer.from(canonicalJson(e))));
  });

  it("gives a private game only a salted hash of its record, which changes with the salt and the record", function () {
    const { record, actions } = playedGame(4, { public: false });
    const e = gameEntryOf(record, actions);
    const p = privateEntryOf(e, "s1");
    assert.deepEqual(Object.keys(p).sort(), ["digest", "finishedAt", "format", "kind"]);
    assert.ok(!canonicalJson(p).includes(record.id));
    assert.notEqual(privateEntryOf(e, "s2").digest, p.digest);
    assert.notEqual(privateEntryOf({ ...e, winner: null }, "s1").digest, p.digest);
  });
});

describe("docs/log-entry.schema.json", function () {
  it("accepts every kind of entry the log writes and refuses one with a member it does not name", function () {
    const ajv = new Ajv({ strict: false });
    addFormats(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync("docs/log-entry.schema.json", "utf8")) as object);
    for (let n = 0; n < 4; n++) {
      const { record, actions } = playedGame(n, n === 1 ? { tournamentId: "t_x" } : {});
      const e = gameEntryOf(record, actions);
      assert.ok(validate(JSON.parse(canonicalJson(e))), ajv.errorsText(validate.errors));
      assert.ok(validate(privateEntryOf(e, "s")), ajv.errorsText(validate.errors));
      assert.ok(!validate({ ...e, extra: 1 }));
    }
    const aborted = gameEntryOf({ ...playedGame(5).record, winner: null, decidedBy: "aborted", seed: "00ff00ff00ff00ff00ff00ff00ff00ff" }, []);
    assert.ok(validate(aborted), ajv.errorsText(validate.errors));
  });

  it("accepts a rated game's format 2 entry and a format 1 entry already in a log, and refuses ratings in format 1", function () {
    const ajv = new Ajv({ strict: false });
    addFormats(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync("docs/log-entry.schema.json", "utf8")) as object);
    const rated = ratedEntry();
    assert.equal(rated.format, 2);
    assert.ok(validate(JSON.parse(canonicalJson(rated))), ajv.errorsText(validate.errors));
    const old = formatOne();
    assert.ok(validate(old), ajv.errorsText(validate.errors));
    assert.ok(validate(privateEntryOf(old, "s")) && validate({ ...privateEntryOf(old, "s"), format: 1 }));
    assert.ok(!validate({ ...rated, format: 1 }), "ratings in a format 1 entry");
    assert.ok(!validate({ ...rated, format: 4 }));
    assert.ok(!validate({ ...rated, format: 3 }), "a format 3 rated seat carries its step");
    const halfRated = { ...rated, seats: { ...rated.seats, B: { ...rated.seats.B!, ratingAfter: undefined } } };
    assert.ok(!validate(JSON.parse(JSON.stringify(halfRated))), "a rating before without one after");
  });
});

/** A rated game's entry: seat A from a previous point, seat B from the initial rating. */
function ratedEntry() {
  const { record, actions } = playedGame(2);
  return gameEntryOf(record, actions, [
    { playerId: "PA", before: { rating: 1612.25, rd: 240.5 }, after: { rating: 1630.125, rd: 230.75 } },
    { playerId: "PB", before: { rating: 1500, rd: 350 }, after: { rating: 1420.5, rd: 290.25 } },
  ]);
}

/** An entry as format 1 wrote it: no ratings. */
function formatOne() {
  const { record, actions } = playedGame(3);
  return { ...gameEntryOf(record, actions), format: 1 as const };
}

describe("Entry formats", function () {
  it("puts a rated seat's ratings in its entry, and none in an unrated game's", function () {
    const e = ratedEntry();
    assert.deepEqual(e.seats.A?.ratingBefore, { rating: 1612.25, rd: 240.5 });
    assert.deepEqual(e.seats.B?.ratingAfter, { rating: 1420.5, rd: 290.25 });
    const { record, actions } = playedGame(2);
    const unrated = gameEntryOf(record, actions);
    assert.ok(!("ratingBefore" in unrated.seats.A!) && !("ratingAfter" in unrated.seats.B!));
  });

  it("checks a format 2 entry's ratings and still accepts a format 1 entry", function () {
    assert.deepEqual(checkEntry(ratedEntry()), { ok: true });
    assert.deepEqual(checkEntry(formatOne()), { ok: true });
    const rated = ratedEntry();
    assert.equal((checkEntry({ ...rated, format: 1 }) as { field: string }).field, "seats.A");
    assert.equal((checkEntry({ ...rated, format: 4 as 2 }) as { field: string }).field, "format");
    assert.equal((checkEntry({ ...rated, format: 3 }) as { field: string }).field, "seats.A", "a format 3 rated seat without its step");
    const noAfter = { ...rated, seats: { ...rated.seats, B: { playerId: "PB", kind: "bot" as const, ratingBefore: { rating: 1500, rd: 350 } } } };
    assert.equal((checkEntry(noAfter) as { field: string }).field, "seats.B");
  });
});
