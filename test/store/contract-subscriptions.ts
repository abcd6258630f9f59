/** Contract: webhook subscriptions, their unfinished deliveries, and verified callback urls. */
import assert from "node:assert/strict";
import type { DeliveryRecord, SubscriptionRecord } from "../../src/store";
import type { SubscriptionsPort } from "../../src/store";
import type { PortRef } from "./contract";
import { at, subscription, T0 } from "./fixtures";

const NOW = "2025-06-01T00:00:00.000Z";
const byId = (subs: SubscriptionRecord[]) => subs.map((s) => s.id).sort();
const delivery = (eventId: string, minute: number, leaseUntil: string): DeliveryRecord => ({
  eventId,
  subscriptionId: "S1",
  subscriptionKey: "k1",
  body: `{"eventId":"${eventId}"}`,
  leaseUntil,
  createdAt: at(minute),
});
const ids = (d: DeliveryRecord[]) => d.map((x) => x.eventId);

export function subscriptionsContract(store: PortRef<SubscriptionsPort>): void {
  describe("subscriptions", function () {
    it("stores a new key and returns the record when upserted", async function () {
      const s = subscription("S1", "k1", { arguments: { game_id: "G1", seat: "A" }, cursor: 3 });
      assert.deepEqual(await store().upsertSubscription(s), s);
      assert.deepEqual(await store().getSubscriptionByKey("k1"), s);
      assert.equal(await store().getSubscriptionByKey("k2"), null);
    });

    it("updates in place keeping id and createdAt when the same key is upserted again", async function () {
      await store().upsertSubscription(subscription("S1", "k1"));
      const again = subscription("S2", "k1", {
        secret: "whsec_new",
        expiresAt: "2031-01-01T00:00:00.000Z",
        failures: 0,
        cursor: 7,
        createdAt: at(9),
        updatedAt: at(9),
      });
      const stored = await store().upsertSubscription(again);
      assert.deepEqual(stored, { ...again, id: "S1", createdAt: T0 });
      assert.deepEqual(await store().getSubscriptionByKey("k1"), stored);
      assert.deepEqual(await store().findSubscriptions("game.move", {}, NOW), [stored]);
    });

    it("deletes by key reporting whether something was deleted", async function () {
      await store().upsertSubscription(subscription("S1", "k1"));
      assert.equal(await store().deleteSubscriptionByKey("k1"), true);
      assert.equal(await store().deleteSubscriptionByKey("k1"), false);
      assert.equal(await store().getSubscriptionByKey("k1"), null);
    });

    it("deletes by id", async function () {
      await store().upsertSubscription(subscription("S1", "k1"));
      await store().deleteSubscription("S1");
      await store().deleteSubscription("S1");
      assert.equal(await store().getSubscriptionByKey("k1"), null);
    });

    it("merges the patch and bumps updatedAt when a subscription is updated", async function () {
      await store().upsertSubscription(subscription("S1", "k1"));
      await store().updateSubscription("S1", { failures: 2, cursor: 11 });
      const s = (await store().getSubscriptionByKey("k1"))!;
      assert.equal(s.failures, 2);
      assert.equal(s.cursor, 11);
      assert.equal(s.secret, "whsec_x");
      assert.ok(s.updatedAt > T0);
      await store().updateSubscription("missing", { failures: 1 });
    });

    it("finds live subscriptions of an event whose arguments include every given pair", async function () {
      await store().upsertSubscription(subscription("S1", "k1", { arguments: { game_id: "G1", seat: "A" } }));
      await store().upsertSubscription(subscription("S2", "k2", { arguments: { game_id: "G1", seat: "B" } }));
      await store().upsertSubscription(subscription("S3", "k3", { arguments: { game_id: "G2" } }));
      await store().upsertSubscription(subscription("S4", "k4", { name: "game.turn", arguments: { game_id: "G1", seat: "A" } }));
      await store().upsertSubscription(subscription("S5", "k5", { arguments: {} }));
      const find = async (name: string, match: Record<string, unknown>) => byId(await store().findSubscriptions(name, match, NOW));
      assert.deepEqual(await find("game.move", { game_id: "G1" }), ["S1", "S2"]);
      assert.deepEqual(await find("game.move", { game_id: "G1", seat: "B" }), ["S2"]);
      assert.deepEqual(await find("game.move", {}), ["S1", "S2", "S3", "S5"]);
      assert.deepEqual(await find("game.turn", { game_id: "G1", seat: "A" }), ["S4"]);
      assert.deepEqual(await find("game.move", { game_id: "G9" }), []);
      assert.deepEqual(await find("game.end", {}), []);
    });

    it("finds the subscriptions naming a game, whatever their name and expiry, in store order", async function () {
      await store().upsertSubscription(subscription("S1", "k1", { arguments: { game_id: "G1", seat: "A" } }));
      await store().upsertSubscription(subscription("S2", "k2", { name: "game.finished", arguments: {} }));
      await store().upsertSubscription(subscription("S3", "k3", { arguments: { game_id: "G2" } }));
      await store().upsertSubscription(
        subscription("S4", "k4", { name: "game.turn", arguments: { game_id: "G1", seat: "B" }, expiresAt: "2020-01-01T00:00:00.000Z" }),
      );
      await store().upsertSubscription(subscription("S5", "k5", { name: "challenge.played", arguments: { token: "t" } }));
      await store().upsertSubscription(subscription("S6", "k6", { arguments: { game_id: 1 } }));
      const found = await store().findGameSubscriptions("G1");
      assert.deepEqual(
        found.map((s) => s.id),
        ["S1", "S4"],
      );
      assert.deepEqual(found[0], subscription("S1", "k1", { arguments: { game_id: "G1", seat: "A" } }));
      assert.deepEqual(
        (await store().findGameSubscriptions("G2")).map((s) => s.id),
        ["S3"],
      );
      assert.deepEqual(await store().findGameSubscriptions("1"), [], "a game id is compared as a string");
      assert.deepEqual(await store().findGameSubscriptions("G9"), []);
    });

    it("matches argument values by type and by structure", async function () {
      await store().upsertSubscription(subscription("S1", "k1", { name: "rank", arguments: { top: 10, tags: { a: 1, b: [2] } } }));
      const find = async (match: Record<string, unknown>) => byId(await store().findSubscriptions("rank", match, NOW));
      assert.deepEqual(await find({ top: 10 }), ["S1"]);
      assert.deepEqual(await find({ top: "10" }), []);
      assert.deepEqual(await find({ tags: { b: [2], a: 1 } }), ["S1"]);
      assert.deepEqual(await find({ tags: { a: 1 } }), []);
    });

    it("excludes subscriptions that expired at or before now", async function () {
      await store().upsertSubscription(subscription("S1", "k1", { expiresAt: "2025-05-31T23:59:59.999Z" }));
      await store().upsertSubscription(subscription("S2", "k2", { expiresAt: NOW }));
      await store().upsertSubscription(subscription("S3", "k3", { expiresAt: "2025-06-01T00:00:00.001Z" }));
      assert.deepEqual(byId(await store().findSubscriptions("game.move", { game_id: "G1" }, NOW)), ["S3"]);
    });

    it("deletes expired subscriptions and reports how many when asked to", async function () {
      await store().upsertSubscription(subscription("S1", "k1", { expiresAt: "2025-01-01T00:00:00.000Z" }));
      await store().upsertSubscription(subscription("S2", "k2", { expiresAt: NOW }));
      await store().upsertSubscription(subscription("S3", "k3", { expiresAt: "2026-01-01T00:00:00.000Z" }));
      assert.equal(await store().deleteExpiredSubscriptions(NOW), 2);
      assert.equal(await store().deleteExpiredSubscriptions(NOW), 0);
      assert.equal(await store().getSubscriptionByKey("k1"), null);
      assert.ok(await store().getSubscriptionByKey("k3"));
    });
  });

  describe("deliveries", function () {
    it("leases deliveries whose lease has ended, oldest first, up to the limit, and returns them as stored", async function () {
      await store().saveDeliveries([delivery("E3", 3, at(0)), delivery("E1", 1, at(0)), delivery("E2", 2, at(10)), delivery("E4", 4, at(0))]);
      const first = await store().claimDeliveries(at(5), at(20), 2);
      assert.deepEqual(first, [{ ...delivery("E1", 1, at(20)) }, { ...delivery("E3", 3, at(20)) }]);
      assert.deepEqual(ids(await store().claimDeliveries(at(5), at(20), 10)), ["E4"]);
      assert.deepEqual(ids(await store().claimDeliveries(at(5), at(20), 10)), [], "a leased delivery is not handed out twice");
      assert.deepEqual(ids(await store().claimDeliveries(at(20), at(30), 10)), ["E1", "E2", "E3", "E4"]);
    });

    it("replaces a delivery saved again under the same eventId", async function () {
      await store().saveDeliveries([delivery("E1", 1, at(50))]);
      await store().saveDeliveries([delivery("E1", 1, at(0))]);
      assert.deepEqual(await store().claimDeliveries(at(1), at(60), 10), [delivery("E1", 1, at(60))]);
    });

    it("forgets deleted deliveries and ignores unknown ones", async function () {
      await store().saveDeliveries([delivery("E1", 1, at(0)), delivery("E2", 2, at(0))]);
      await store().deleteDeliveries(["E1", "nope"]);
      await store().deleteDeliveries([]);
      await store().saveDeliveries([]);
      assert.deepEqual(ids(await store().claimDeliveries(at(1), at(2), 10)), ["E2"]);
    });

    it("returns three distinct deliveries when three expired ones are claimed at once with a lease still before expiredBy", async function () {
      // Exclusive recovery claims everything (expiredBy far in the future): the new lease still matches.
      await store().saveDeliveries([delivery("E1", 1, at(0)), delivery("E2", 2, at(0)), delivery("E3", 3, at(0))]);
      const claimed = await store().claimDeliveries("9999-12-31T23:59:59.999Z", at(9), 10);
      assert.deepEqual(ids(claimed), ["E1", "E2", "E3"]);
      assert.ok(claimed.every((d) => d.leaseUntil === at(9)));
    });

    it("ends the leases of a dead holder's deliveries so they can be claimed at once, leaving others alone", async function () {
      await store().saveDeliveries([
        { ...delivery("E1", 1, at(30)), holder: "dead" },
        { ...delivery("E2", 2, at(30)), holder: "live" },
        { ...delivery("E3", 3, at(30)), holder: "dead" },
        delivery("E4", 4, at(30)),
      ]);
      assert.equal(await store().expireDeliveriesOf("dead", at(5)), 2);
      const claimed = await store().claimDeliveries(at(5), at(40), 10, "taker");
      assert.deepEqual(ids(claimed), ["E1", "E3"]);
      assert.ok(claimed.every((d) => d.holder === "taker" && d.leaseUntil === at(40)));
      assert.equal(await store().expireDeliveriesOf("dead", at(5)), 0, "deliveries taken over are not ended again");
      assert.equal(await store().expireDeliveriesOf("taker", at(6)), 2);
      assert.equal(await store().expireDeliveriesOf("nobody", at(5)), 0);
    });

    it("takes every one of racing first saves of the same delivery", async function () {
      await Promise.all(Array.from({ length: 8 }, (_, i) => store().saveDeliveries([delivery("E1", i, at(0))])));
      assert.equal((await store().claimDeliveries(at(1), at(9), 5)).length, 1);
    });

    it("hands each expired delivery to exactly one of two racing claims", async function () {
      await store().saveDeliveries(Array.from({ length: 20 }, (_, i) => delivery(`E${String(i).padStart(2, "0")}`, i, at(0))));
      const [a, b] = await Promise.all([store().claimDeliveries(at(1), at(9), 15), store().claimDeliveries(at(1), at(9), 15)]);
      const all = [...ids(a), ...ids(b)].sort();
      assert.equal(all.length, 20);
      assert.equal(new Set(all).size, 20);
    });
  });

  describe("verified urls", function () {
    it("remembers the latest verification time of a url", async function () {
      const url = "https://agent.example/hook";
      assert.equal(await store().urlVerifiedAt(url), null);
      await store().markUrlVerified(url, at(1));
      assert.equal(await store().urlVerifiedAt(url), at(1));
      await store().markUrlVerified(url, at(2));
      assert.equal(await store().urlVerifiedAt(url), at(2));
      assert.equal(await store().urlVerifiedAt("https://other.example/"), null);
    });

    it("takes every one of racing first verifications of a url", async function () {
      const url = "https://agent.example/race";
      await Promise.all(Array.from({ length: 8 }, (_, i) => store().markUrlVerified(url, at(i))));
      assert.ok((await store().urlVerifiedAt(url))! >= at(0));
    });
  });
}
