import { MongoStore } from "../../src/store/mongo";
import { storeContract } from "./contract";

const url = process.env.MONGODB_URL;

/** Every store gets its own database, dropped on close: tests start empty and parallel runs never meet. */
class ThrowawayMongoStore extends MongoStore {
  override async close(): Promise<void> {
    await this.dropDatabase();
    await super.close();
  }
}

if (url) {
  let n = 0;
  storeContract("mongoose", async () => {
    const u = new URL(url);
    u.pathname = `/store_contract_${process.pid}_${n++}`;
    return new ThrowawayMongoStore({ url: u.toString() });
  });
} else {
  describe("Contract: Store (mongoose)", function () {
    it("runs the contract against MongoDB when MONGODB_URL is set", function () {
      console.log("    mongoose adapter contract tests skipped: set MONGODB_URL to run them");
      this.skip();
    });
  });
}
