import assert from "node:assert/strict";
import Database from "better-sqlite3";
import { DocumentTable } from "../../src/store/sqlite/document-table";

interface Doc {
  id: string;
  owner: string;
  createdAt: string;
  updatedAt?: string;
  version: number;
  note?: string;
}

const SCHEMA = `CREATE TABLE docs (id TEXT PRIMARY KEY, owner TEXT NOT NULL UNIQUE, created_at TEXT NOT NULL, version INTEGER NOT NULL, doc TEXT NOT NULL)`;

describe("Unit: the SQLite document table", function () {
  let db: Database.Database;
  let docs: DocumentTable<Doc>;
  let writes: number;
  beforeEach(function () {
    db = new Database(":memory:");
    db.exec(SCHEMA);
    writes = 0;
    const write = async <R>(fn: () => R): Promise<R> => (writes++, fn());
    docs = new DocumentTable<Doc>(db, write, {
      table: "docs",
      key: { column: "id", member: "id" },
      columns: { owner: (d) => d.owner, created_at: (d) => d.createdAt },
      fixed: ["created_at"],
      versioned: true,
    });
  });
  afterEach(() => db.close());

  const doc = (id: string, over: Partial<Doc> = {}): Doc => ({ id, owner: `o_${id}`, createdAt: "2024-01-01T00:00:00.000Z", version: 1, ...over });
  const row = (id: string) => db.prepare("SELECT * FROM docs WHERE id = ?").get(id);

  it("stores the record verbatim beside its columns, through the store's write, and refuses a taken key or unique column", async function () {
    await docs.create(doc("a", { note: "x" }));
    assert.equal(writes, 1);
    assert.deepEqual(row("a"), { id: "a", owner: "o_a", created_at: "2024-01-01T00:00:00.000Z", version: 1, doc: JSON.stringify(doc("a", { note: "x" })) });
    assert.deepEqual(await docs.get("a"), doc("a", { note: "x" }));
    assert.equal(await docs.get("b"), null);
    await assert.rejects(docs.create(doc("a", { owner: "other" })), /UNIQUE|PRIMARY/);
    await assert.rejects(docs.create(doc("b", { owner: "o_a" })), /UNIQUE/);
  });

  it("replaces a record only over the version it was made from, keeping the columns fixed at insert", async function () {
    await docs.create(doc("a"));
    assert.equal(await docs.replaceIf(doc("a", { version: 3 })), false, "not over version 1");
    assert.equal(await docs.replaceIf(doc("a", { version: 2, owner: "new", createdAt: "2030-01-01T00:00:00.000Z" })), true);
    assert.equal(await docs.replaceIf(doc("a", { version: 2 })), false, "version 1 is gone");
    assert.deepEqual(row("a"), {
      id: "a",
      owner: "new",
      created_at: "2024-01-01T00:00:00.000Z",
      version: 2,
      doc: JSON.stringify(doc("a", { version: 2, owner: "new", createdAt: "2030-01-01T00:00:00.000Z" })),
    });
    assert.equal(await docs.replaceIf(doc("nope", { version: 2 })), false);
  });

  it("patches by read-merge-write: the key kept, undefined members removed, updatedAt stamped unless asked not to, only as expected", async function () {
    await docs.create(doc("a", { note: "x" }));
    assert.equal(await docs.patch("a", { owner: "b", note: undefined, id: "z" }, { version: 2 }), false, "the expectation does not hold");
    assert.equal(await docs.patch("a", { owner: "b", note: undefined, id: "z" }, { version: 1, note: "x" }), true);
    const patched = (await docs.get("a"))!;
    assert.equal(patched.id, "a");
    assert.equal(patched.owner, "b");
    assert.equal("note" in patched, false);
    assert.match(patched.updatedAt!, /^\d{4}-/);
    assert.equal((row("a") as { owner: string }).owner, "b", "the column follows the record");
    await docs.patch("a", { note: "y" }, {}, false);
    assert.equal((await docs.get("a"))!.updatedAt, patched.updatedAt, "not stamped");
    assert.equal(await docs.patch("nope", { note: "y" }), false);
  });

  it("puts a record over the one of its key, and lists by the caller's SQL", async function () {
    await docs.put(doc("b", { createdAt: "2024-01-02T00:00:00.000Z" }));
    await docs.put(doc("a"));
    await docs.put(doc("b", { owner: "again", createdAt: "2031-01-01T00:00:00.000Z" }));
    assert.equal((row("b") as { created_at: string }).created_at, "2024-01-02T00:00:00.000Z", "the insert's creation time stays");
    assert.equal((await docs.get("b"))!.owner, "again");
    assert.deepEqual(
      (await docs.list("ORDER BY created_at DESC, id DESC LIMIT ?", 5)).map((d) => d.id),
      ["b", "a"],
    );
    assert.deepEqual(
      (await docs.list("WHERE owner = ?", "again")).map((d) => d.id),
      ["b"],
    );
  });
});
