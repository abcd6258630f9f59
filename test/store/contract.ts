/**
 * The behaviour every Store adapter must have: one suite per port (games, players, challenges,
 * communities, subscriptions and deliveries, tournaments, leagues), each seeing only its port's member of
 * the store (or, for a port whose records another port writes, such as the rating history, those members). Adapters call storeContract with a
 * factory that returns a fresh, empty, not-yet-initialised store; each test gets its own. An adapter whose
 * data several processes share also gives `twin`: a second store on the current test's data, as another
 * process would open it, for the race tests (closed by the suite, leaving the data to the first store).
 */
import type { Store } from "../../src/store";
import { botsContract } from "./contract-bots";
import { clusterContract } from "./contract-cluster";
import { gamesContract } from "./contract-games";
import { challengesContract, communitiesContract, playersContract } from "./contract-people";
import { subscriptionsContract } from "./contract-subscriptions";
import { tournamentsContract } from "./contract-tournaments";
import { leaguesContract } from "./contract-leagues";
import { ratingsContract } from "./contract-ratings";
import { logContract } from "./contract-log";

/** Hands the current test's store to the sub-suites, which are defined before any store exists. */
export type StoreRef = () => Store;
/** What one port's suite sees of the store: that port only. */
export type PortRef<P> = () => P;
/** Opens a second, initialised store on the current test's data. */
export type TwinRef = () => Promise<Store>;

export function storeContract(name: string, make: () => Promise<Store>, twin?: (first: Store) => Promise<Store>): void {
  describe(`Contract: Store (${name})`, function () {
    let store: Store | null = null;
    const ref: StoreRef = () => {
      if (!store) throw new Error("no store for this test");
      return store;
    };

    beforeEach(async function () {
      store = await make();
      await store.init();
    });
    const twins: Store[] = [];
    afterEach(async function () {
      for (const t of twins.splice(0)) await t.close();
      await store?.close();
      store = null;
    });
    const openTwin =
      twin &&
      (async () => {
        const t = await twin(ref());
        twins.push(t);
        await t.init();
        return t;
      });

    it("initialises idempotently when init is called again", async function () {
      await ref().init();
      expectNull(await ref().games.getGame("nope"));
    });

    gamesContract(ref);
    playersContract(() => ref().players);
    challengesContract(() => ref().challenges);
    communitiesContract(() => ref().communities);
    subscriptionsContract(() => ref().subscriptions);
    tournamentsContract(() => ref().tournaments);
    leaguesContract(() => ref().leagues);
    ratingsContract(ref);
    clusterContract(ref, openTwin);
    botsContract(() => ref().bots);
    logContract(ref, openTwin);
  });
}

function expectNull(v: unknown): void {
  if (v !== null) throw new Error(`expected null, got ${JSON.stringify(v)}`);
}
