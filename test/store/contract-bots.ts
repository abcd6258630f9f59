/** Contract: the bots port (a record per bot, found by id or by its key's hash). */
import assert from "node:assert/strict";
import { isDuplicateKey } from "../../src/store/duplicate";
import type { BotRecord, BotsPort } from "../../src/store";
import type { PortRef } from "./contract";
import { at, T0 } from "./fixtures";

const bot = (id: string, keyHash: string, extra: Partial<BotRecord> = {}): BotRecord => ({ id, name: `name-${id}`, keyHash, createdAt: T0, ...extra });

export function botsContract(store: PortRef<BotsPort>): void {
  describe("bots", function () {
    it("finds a created bot by id and by its key's hash, as a copy equal to what was given", async function () {
      const b = bot("BOT-A1", "h1", { owner: "ann@example.org" });
      await store().createBot(b);
      assert.deepEqual(await store().getBot("BOT-A1"), b);
      assert.deepEqual(await store().findBotByKey("h1"), b);
      assert.equal(await store().getBot("BOT-NONE"), null);
      assert.equal(await store().findBotByKey("h2"), null);
    });

    it("refuses a second bot with the same id or the same key hash as a duplicate key", async function () {
      await store().createBot(bot("BOT-A1", "h1"));
      await assert.rejects(store().createBot(bot("BOT-A1", "h2")), (e) => isDuplicateKey(e));
      await assert.rejects(store().createBot(bot("BOT-B1", "h1")), (e) => isDuplicateKey(e));
    });

    it("lists bots newest first, revoked ones too, by limit and offset", async function () {
      await store().createBot(bot("BOT-A1", "h1", { createdAt: at(1) }));
      await store().createBot(bot("BOT-B1", "h2", { createdAt: at(3), description: "plays fast" }));
      await store().createBot(bot("BOT-C1", "h3", { createdAt: at(2), revokedAt: at(4) }));
      assert.deepEqual(
        (await store().listBots(10, 0)).map((b) => b.id),
        ["BOT-B1", "BOT-C1", "BOT-A1"],
      );
      assert.deepEqual(
        (await store().listBots(1, 1)).map((b) => b.id),
        ["BOT-C1"],
      );
      assert.deepEqual(await store().listBots(0, 0), []);
      assert.equal((await store().listBots(1, 0))[0].description, "plays fast");
    });

    it("updates the key hash and the revocation, so the old key finds nothing", async function () {
      await store().createBot(bot("BOT-A1", "h1"));
      await store().updateBot("BOT-A1", { keyHash: "h9", revokedAt: T0 });
      assert.equal(await store().findBotByKey("h1"), null);
      assert.equal((await store().findBotByKey("h9"))?.revokedAt, T0);
      await store().updateBot("BOT-NONE", { revokedAt: T0 });
      assert.equal(await store().getBot("BOT-NONE"), null);
    });
  });
}
