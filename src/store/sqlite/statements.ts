/**
 * Every SQL statement of the SQLite adapter, prepared once when the store is initialised.
 */
import type { Database, Statement } from "better-sqlite3";
import { LISTED_PLAYER } from "./schema";

/** Members of a community in join order, as a JSON array, computed next to the community row. */
const MEMBERS = `(SELECT json_group_array(player_id) FROM
  (SELECT player_id FROM community_members m WHERE m.community_id = c.id ORDER BY seq)) AS members`;

/**
 * The game listing exists in four shapes (status filter on/off x public filter on/off) so each can use
 * its own index; the row-value comparison lets SQLite seek straight to the cursor.
 */
function listGamesSql(byStatus: boolean, publicOnly: boolean): string {
  const where = ["(created_at, id) < (@createdAt, @id)"];
  if (byStatus) where.push("status = @status");
  if (publicOnly) where.push("public = 1");
  return `SELECT doc FROM games WHERE ${where.join(" AND ")} ORDER BY created_at DESC, id DESC LIMIT @limit`;
}

/** A player's public games, newest first: one seek per seat's player index, merged by SQLite's OR plan. */
const PLAYER_GAMES_SQL = `SELECT doc FROM games WHERE (created_at, id) < (@createdAt, @id) AND public = 1
  AND (player_a = @playerId OR player_b = @playerId)
  ORDER BY created_at DESC, id DESC LIMIT @limit`;

export function prepareStatements(db: Database) {
  const p = (sql: string): Statement => db.prepare(sql);
  return {
    insertGame: p(`INSERT INTO games (id, created_at, status, public, code_a, code_b, player_a, player_b, doc)
      VALUES (@id, @createdAt, @status, @public, @codeA, @codeB, @playerA, @playerB, @doc)`),
    updateGame: p(`UPDATE games SET status = @status, public = @public, code_a = @codeA, code_b = @codeB,
      player_a = @playerA, player_b = @playerB, doc = @doc WHERE id = @id`),
    getGame: p(`SELECT doc FROM games WHERE id = ?`),
    // IS: a null version matches a game without a rematch yet.
    updateRematchIf: p(`UPDATE games SET doc = json_set(doc, '$.rematch', json(@rematch), '$.updatedAt', @updatedAt)
      WHERE id = @id AND status = 'finished' AND json_extract(doc, '$.rematch.version') IS @version`),
    gameByCode: p(`SELECT doc FROM games WHERE code_a = @code OR code_b = @code ORDER BY created_at DESC, id DESC LIMIT 1`),
    listGames: {
      all: p(listGamesSql(false, false)),
      status: p(listGamesSql(true, false)),
      public: p(listGamesSql(false, true)),
      statusPublic: p(listGamesSql(true, true)),
      playerPublic: p(PLAYER_GAMES_SQL),
    },
    unfinishedGames: p(`SELECT doc FROM games WHERE status IN ('waiting', 'active') ORDER BY created_at, id`),
    // games_by_status (status, created_at, id) serves the filter and the order; LIMIT -1 is no limit.
    gamesWithStatus: p(`SELECT doc FROM games WHERE status = @status AND created_at < @before ORDER BY created_at, id LIMIT @limit`),

    insertAction: p(`INSERT INTO actions (game_id, idx, at, action) VALUES (@gameId, @index, @at, @action)`),
    deleteAction: p(`DELETE FROM actions WHERE game_id = @gameId AND idx = @index`),
    listActions: p(`SELECT game_id, idx, at, action FROM actions WHERE game_id = ? ORDER BY idx`),

    insertPlayer: p(`INSERT INTO players (id, rating, doc) VALUES (@id, @rating, @doc)`),
    updatePlayer: p(`UPDATE players SET rating = @rating, doc = @doc WHERE id = @id`),
    getPlayer: p(`SELECT doc FROM players WHERE id = ?`),
    rankAll: p(`SELECT doc FROM players ORDER BY rating DESC, id LIMIT @limit OFFSET @offset`),
    rankAmong: p(`SELECT doc FROM players WHERE id IN (SELECT value FROM json_each(@ids))
      ORDER BY rating DESC, id LIMIT @limit OFFSET @offset`),
    // The player leaderboard's rows only (RankOptions.listed), filtered before LIMIT/OFFSET count them.
    rankListed: p(`SELECT doc FROM players WHERE ${LISTED_PLAYER} ORDER BY rating DESC, id LIMIT @limit OFFSET @offset`),
    rankListedAmong: p(`SELECT doc FROM players WHERE id IN (SELECT value FROM json_each(@ids)) AND ${LISTED_PLAYER}
      ORDER BY rating DESC, id LIMIT @limit OFFSET @offset`),

    insertSubscription: p(`INSERT INTO subscriptions (id, key, name, expires_at, doc)
      VALUES (@id, @key, @name, @expiresAt, @doc)`),
    updateSubscription: p(`UPDATE subscriptions SET key = @key, name = @name, expires_at = @expiresAt, doc = @doc
      WHERE id = @id`),
    subscriptionByKey: p(`SELECT doc FROM subscriptions WHERE key = ?`),
    subscriptionById: p(`SELECT doc FROM subscriptions WHERE id = ?`),
    deleteSubscriptionByKey: p(`DELETE FROM subscriptions WHERE key = ?`),
    deleteSubscription: p(`DELETE FROM subscriptions WHERE id = ?`),
    liveSubscriptions: p(`SELECT doc FROM subscriptions WHERE name = ? AND expires_at > ? ORDER BY rowid`),
    gameSubscriptions: p(`SELECT doc FROM subscriptions WHERE json_extract(doc, '$.arguments.game_id') = ? ORDER BY rowid`),
    deleteExpired: p(`DELETE FROM subscriptions WHERE expires_at <= ?`),

    saveDelivery: p(`INSERT INTO deliveries (event_id, lease_until, created_at, doc)
      VALUES (@eventId, @leaseUntil, @createdAt, @doc)
      ON CONFLICT (event_id) DO UPDATE SET lease_until = excluded.lease_until, doc = excluded.doc`),
    deleteDelivery: p(`DELETE FROM deliveries WHERE event_id = ?`),
    expireDeliveriesOf: p(`UPDATE deliveries SET lease_until = @now, doc = json_set(doc, '$.leaseUntil', @now)
      WHERE json_extract(doc, '$.holder') = @holder AND lease_until > @now`),
    expiredDeliveries: p(`SELECT doc FROM deliveries WHERE lease_until <= ? ORDER BY created_at, event_id LIMIT ?`),

    // The owner fence of a group-commit write: the game is still held under this epoch.
    gameOwnedAt: p(`SELECT 1 FROM games WHERE id = @id AND json_extract(doc, '$.ownerEpoch') = @epoch`),

    saveProcess: p(`INSERT INTO processes (id, heartbeat_at, doc) VALUES (@id, @heartbeatAt, @doc)
      ON CONFLICT (id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at, doc = excluded.doc`),
    touchProcess: p(`UPDATE processes SET heartbeat_at = @heartbeatAt, doc = json_set(doc, '$.heartbeatAt', @heartbeatAt)
      WHERE id = @id`),
    listProcesses: p(`SELECT doc FROM processes ORDER BY id`),
    removeProcessIf: p(`DELETE FROM processes WHERE id = ? AND heartbeat_at = ?`),

    markUrl: p(`INSERT INTO verified_urls (url, at) VALUES (?, ?) ON CONFLICT (url) DO UPDATE SET at = excluded.at`),
    urlAt: p(`SELECT at FROM verified_urls WHERE url = ?`),
    probe: p(`INSERT INTO health_probe (id, at) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET at = excluded.at`),

    insertChallenge: p(`INSERT INTO challenges (token, agent_name, created_at, doc)
      VALUES (@token, @agentName, @createdAt, @doc)`),
    updateChallenge: p(`UPDATE challenges SET agent_name = @agentName, doc = @doc WHERE token = @token`),
    getChallenge: p(`SELECT doc FROM challenges WHERE token = ?`),
    listChallenges: p(`SELECT doc FROM challenges WHERE agent_name = ? ORDER BY created_at DESC, token DESC LIMIT ?`),

    insertTournament: p(`INSERT INTO tournaments (id, created_at, version, doc) VALUES (@id, @createdAt, @version, @doc)`),
    getTournament: p(`SELECT doc FROM tournaments WHERE id = ?`),
    listTournaments: p(`SELECT doc FROM tournaments ORDER BY created_at DESC, id DESC LIMIT ?`),
    replaceTournament: p(`UPDATE tournaments SET version = @version, doc = @doc WHERE id = @id AND version = @version - 1`),

    insertCommunity: p(`INSERT INTO communities (id, kind, created_at, doc) VALUES (@id, @kind, @createdAt, @doc)`),
    getCommunity: p(`SELECT c.doc, ${MEMBERS} FROM communities c WHERE c.id = ?`),
    listCommunities: p(`SELECT c.doc, ${MEMBERS} FROM communities c ORDER BY c.created_at, c.id`),
    listCommunitiesOfKind: p(`SELECT c.doc, ${MEMBERS} FROM communities c WHERE c.kind = ? ORDER BY c.created_at, c.id`),
    communitiesOf: p(`SELECT c.doc, ${MEMBERS} FROM communities c
      WHERE c.id IN (SELECT community_id FROM community_members WHERE player_id = ?) ORDER BY c.created_at, c.id`),
    // Only members of a community that exists: the port has no error for an unknown community.
    addMember: p(`INSERT OR IGNORE INTO community_members (community_id, player_id)
      SELECT @id, @playerId WHERE EXISTS (SELECT 1 FROM communities WHERE id = @id)`),
    removeMember: p(`DELETE FROM community_members WHERE community_id = ? AND player_id = ?`),
  };
}

export type Statements = ReturnType<typeof prepareStatements>;
