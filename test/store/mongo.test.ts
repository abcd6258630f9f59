import { MongoStore } from "../../src/store/mongo";
import { congoAvailable, useMongo } from "../support/congodb";
import { storeContract } from "./contract";

/** Every store gets its own database, dropped on close: tests start empty and parallel runs never meet. */
class ThrowawayMongoStore extends MongoStore {
  override async close(): Promise<void> {
    await this.dropDatabase();
    await super.close();
  }
}

// MONGODB_URL names a real MongoDB to run the contract against; without it the suite starts CongoDB.
if (process.env.MONGODB_URL || congoAvailable()) {
  describe(`MongoDB store on ${process.env.MONGODB_URL ? "MONGODB_URL" : "CongoDB"}`, function () {
    const mongo = useMongo();
    let n = 0;
    const urlOf = new WeakMap<object, string>();
    storeContract(
      "mongoose",
      async () => {
        const u = new URL(mongo.url()!);
        u.pathname = `/store_contract_${process.pid}_${n++}`;
        const store = new ThrowawayMongoStore({ url: u.toString() });
        urlOf.set(store, u.toString());
        return store;
      },
      async (first) => new MongoStore({ url: urlOf.get(first)! }),
    );
  });
} else {
  describe("Contract: Store (mongoose)", function () {
    it("runs the contract against MongoDB when MONGODB_URL is set or CongoDB is installed", function () {
      console.log("    mongoose adapter contract tests skipped: set MONGODB_URL, or run `npm ci` in .ci/congodb");
      this.skip();
    });
  });
}
