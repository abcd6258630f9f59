import { strict as assert } from "node:assert";
import { PlayerService } from "../../src/services/players/service";
import { openStore, type Store } from "../../src/store";
import { insertWithFreshId, isDuplicateKey } from "../../src/store/duplicate";
import { game } from "../store/fixtures";

/** A friend-code generator that answers the given codes in order (then fails the test). */
function scripted(...codes: string[]): () => string {
  return () => {
    const next = codes.shift();
    if (!next) throw new Error("the generator was asked for more codes than the test expected");
    return next;
  };
}

// Every adapter the environment offers: SQLite always, MongoDB when MONGODB_URL is set.
const adapters: Array<[string, () => Promise<Store>]> = [["sqlite", () => openStore({ database: ":memory:" })]];
if (process.env.MONGODB_URL) {
  const u = new URL(process.env.MONGODB_URL);
  u.pathname = `/fresh_id_${process.pid}`;
  adapters.push(["mongoose", () => openStore({ database: ":memory:", mongodbUrl: u.toString() })]);
}

for (const [name, open] of adapters) {
  describe(`Unit: generated player ids that repeat (${name})`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await open();
    });
    afterEach(async () => {
      await (store as { dropDatabase?: () => Promise<void> }).dropDatabase?.();
      await store.close();
    });

    it("still creates the player when the generator repeats an id once", async () => {
      const players = new PlayerService(store, "http://arena.test", () => new Date(), scripted("P-AAAAAAAA", "P-AAAAAAAA", "P-BBBBBBBB"));
      const first = await players.resolve(undefined, "Ann");
      const second = await players.resolve(undefined, "Bob");
      assert.equal(first.player.id, "P-AAAAAAAA");
      assert.equal(second.player.id, "P-BBBBBBBB");
      assert.equal((await store.players.getPlayer("P-AAAAAAAA"))?.name, "Ann", "the first player was overwritten");
      assert.equal((await store.players.getPlayer("P-BBBBBBBB"))?.name, "Bob");
    });

    it("stores a new guest with its game in one write, with a fresh id when its id repeats a taken one", async () => {
      const players = new PlayerService(store, "http://arena.test", () => new Date(), scripted("P-AAAAAAAA", "P-AAAAAAAA", "P-BBBBBBBB"));
      await players.resolve(undefined, "Ann");
      const seats: string[] = [];
      const made = await players.resolveWith(undefined, "Bob", async (guest, player) => {
        seats.push(player.id);
        await store.games.createGame(game("G1", { seats: { A: { playerId: player.id, name: player.name, kind: "human" } } }), guest ? [guest] : []);
      });
      assert.equal(made.player.id, "P-BBBBBBBB");
      assert.deepEqual(seats, ["P-AAAAAAAA", "P-BBBBBBBB"], "the game was written again with the fresh id");
      assert.equal((await store.games.getGame("G1"))?.seats.A?.playerId, "P-BBBBBBBB");
      assert.equal((await store.players.getPlayer("P-AAAAAAAA"))?.name, "Ann", "the first player was overwritten");
      assert.equal((await store.players.getPlayer("P-BBBBBBBB"))?.name, "Bob");
    });

    it("still moves a guest to an account when the account's id repeats a taken one", async () => {
      const players = new PlayerService(store, "http://arena.test", () => new Date(), scripted("P-AAAAAAAA", "P-AAAAAAAA", "P-CCCCCCCC"));
      const guest = await players.resolve(undefined, "Ann");
      const claimed = await players.claim(guest.player.id, { secret: guest.secret! });
      assert.equal(claimed.account.id, "P-CCCCCCCC");
      assert.equal((await store.players.getPlayer(guest.player.id))?.movedTo, "P-CCCCCCCC", "the guest points at the account made");
    });
  });
}

describe("Unit: insertWithFreshId", () => {
  it("recognises the unique violations of both adapters and nothing else", () => {
    assert.ok(isDuplicateKey({ code: "SQLITE_CONSTRAINT_PRIMARYKEY" }));
    assert.ok(isDuplicateKey({ code: 11000 }));
    assert.ok(isDuplicateKey({ code: 1, writeErrors: [{ code: 11000 }] }));
    assert.ok(!isDuplicateKey({ code: "SQLITE_BUSY" }));
    assert.ok(!isDuplicateKey(new Error("boom")));
    assert.ok(!isDuplicateKey(null));
  });

  it("throws other errors at once, and gives up on a generator that only repeats", async () => {
    let calls = 0;
    const busy = Object.assign(new Error("busy"), { code: "SQLITE_BUSY" });
    await assert.rejects(
      insertWithFreshId(
        () => "x",
        (id) => id,
        () => (calls++, Promise.reject(busy)),
      ),
      /busy/,
    );
    assert.equal(calls, 1);
    const dup = Object.assign(new Error("dup"), { code: 11000 });
    calls = 0;
    await assert.rejects(
      insertWithFreshId(
        () => "x",
        (id) => id,
        () => (calls++, Promise.reject(dup)),
      ),
      /dup/,
    );
    assert.equal(calls, 8);
  });
});
