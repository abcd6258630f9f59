/** The bots port: bot accounts (src/services/bots). */

/** A registered bot. Its profile (a PlayerRecord of kind "bot") has the same id. */
export interface BotRecord {
  id: string;
  name: string;
  /** How to reach the bot's owner, as they gave it (optional; never shown). */
  owner?: string;
  /** What the bot is, in its owner's words (optional; public). */
  description?: string;
  /** sha256 hex of the bot's key (bk_...); the key itself is shown once and never stored. */
  keyHash: string;
  createdAt: string;
  /** Set when the key was revoked: the bot can no longer play. */
  revokedAt?: string;
}

/** Bot accounts (src/services/bots). */
export interface BotsPort {
  /** Refused as a duplicate key when the id is taken. */
  createBot(b: BotRecord): Promise<void>;
  getBot(id: string): Promise<BotRecord | null>;
  /** The bot whose key hashes to `keyHash`, revoked or not; null when none. */
  findBotByKey(keyHash: string): Promise<BotRecord | null>;
  /** Ignored when the bot does not exist. */
  updateBot(id: string, patch: Partial<Omit<BotRecord, "id">>): Promise<void>;
  /** Bots newest first (createdAt, then id), revoked ones too, skipping `offset`, at most `limit`. */
  listBots(limit: number, offset: number): Promise<BotRecord[]>;
}
