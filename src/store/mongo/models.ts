/**
 * Mongoose models of the MongoDB adapter. The schemas declare no paths: records are stored exactly as the
 * port defines them (no casting, no added members), and the schemas exist to carry the indexes.
 */
import { Schema, type Connection, type Model } from "mongoose";

export type Doc = Record<string, unknown>;

function makeSchema(indexes: [Record<string, 1 | -1>, { unique?: boolean; sparse?: boolean }?][], bufferTimeoutMS: number): Schema<Doc> {
  const s = new Schema<Doc>(
    {},
    {
      bufferTimeoutMS, // a call made while disconnected fails after this rather than the 10 s default
      strict: false, // keep every member of the record
      strictQuery: false, // filters name paths the schema does not declare
      minimize: false, // an empty `seats` or `champions` object is part of the record
      versionKey: false,
      id: false, // records have their own `id` member; the virtual would shadow it
      autoIndex: false, // built explicitly by init() so failures surface there
    },
  );
  for (const [fields, options] of indexes) s.index(fields, options);
  return s;
}

export function createModels(conn: Connection, bufferTimeoutMS: number) {
  const m = (name: string, collection: string, s: Schema<Doc>): Model<Doc> => conn.model<Doc>(name, s, collection);
  const schema = (indexes: Parameters<typeof makeSchema>[0]) => makeSchema(indexes, bufferTimeoutMS);
  return {
    games: m(
      "Game",
      "games",
      schema([
        [{ id: 1 }, { unique: true }],
        [{ createdAt: -1, id: -1 }],
        [{ status: 1, createdAt: -1, id: -1 }],
        [{ public: 1, createdAt: -1, id: -1 }],
        [{ "seats.A.code": 1 }, { sparse: true }],
        [{ "seats.B.code": 1 }, { sparse: true }],
        [{ "seats.A.playerId": 1, createdAt: -1, id: -1 }],
        [{ "seats.B.playerId": 1, createdAt: -1, id: -1 }],
      ]),
    ),
    // Games keep their actions in their own document (`log`); this collection holds the actions of games
    // stored before, read once when such a game's log is first read (games.ts).
    actions: m("Action", "actions", schema([[{ gameId: 1, index: 1 }, { unique: true }]])),
    players: m("Player", "players", schema([[{ id: 1 }, { unique: true }], [{ rating: -1, id: 1 }]])),
    subscriptions: m(
      "Subscription",
      "subscriptions",
      schema([
        [{ id: 1 }, { unique: true }],
        [{ key: 1 }, { unique: true }],
        [{ name: 1, expiresAt: 1 }],
        [{ expiresAt: 1 }],
        // findGameSubscriptions: a live game's room loads its subscriptions by game.
        [{ "arguments.game_id": 1 }],
      ]),
    ),
    deliveries: m(
      "Delivery",
      "deliveries",
      schema([
        [{ eventId: 1 }, { unique: true }],
        // The claim sorts by (createdAt, eventId) and filters on leaseUntil: the first expired in that order.
        [{ createdAt: 1, eventId: 1, leaseUntil: 1 }],
        [{ holder: 1 }, { sparse: true }],
      ]),
    ),
    processes: m("Process", "processes", schema([[{ id: 1 }, { unique: true }]])),
    verifiedUrls: m("VerifiedUrl", "verified_urls", schema([[{ url: 1 }, { unique: true }]])),
    challenges: m("Challenge", "challenges", schema([[{ token: 1 }, { unique: true }], [{ "agent.name": 1, createdAt: -1, token: -1 }]])),
    communities: m(
      "Community",
      "communities",
      schema([
        [{ id: 1 }, { unique: true }],
        [{ kind: 1, createdAt: 1, id: 1 }],
        // Members of communities stored before members had their own documents.
        [{ members: 1 }],
      ]),
    ),
    tournaments: m("Tournament", "tournaments", schema([[{ id: 1 }, { unique: true }], [{ createdAt: -1, id: -1 }]])),
    // One document per membership: a community's size is not bounded by a document's.
    members: m(
      "CommunityMember",
      "community_members",
      schema([[{ communityId: 1, playerId: 1 }, { unique: true }], [{ communityId: 1, joinedAt: 1 }], [{ playerId: 1 }]]),
    ),
  };
}

export type Models = ReturnType<typeof createModels>;
