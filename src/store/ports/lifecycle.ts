/** The store's lifecycle: opening, closing and its health. */

/** What /healthz reports about the store: whether a trivial round trip succeeds right now. */
export interface StoreHealth {
  ok: boolean;
  adapter: "sqlite" | "mongodb";
  state: string;
}

/** Opening, closing and checking the store, whichever ports it serves. */
export interface StoreLifecycle {
  /** Create tables/indexes; idempotent. */
  init(): Promise<void>;
  close(): Promise<void>;
  /** A bounded round trip to the store; never throws (a failure is `ok: false` with the state). */
  health(): Promise<StoreHealth>;
}
