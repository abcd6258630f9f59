/**
 * A tournament round's games created at once (GameCreation.createForTournamentRound): one store write for the
 * round, every game's room open, idempotent, and a round that another process partly stored meanwhile (the one
 * write refused whole) stored game by game, each game once, with the seats as stored.
 */
import { strict as assert } from "node:assert";
import { matchMaker } from "@colyseus/core";
import { RoomAccess } from "../../src/services/games/room-access";
import { GameCreation, type TournamentPairing } from "../../src/services/games/creation";
import type { GameReads } from "../../src/services/games/reads";
import type { PlayerService } from "../../src/services/players/service";
import type { RunningServer } from "../../src/server";
import type { GameRecord, GamesPort } from "../../src/store/port";
import { bootServer } from "../support/server";

const seat = (n: number) => ({ playerId: `P${n}`, name: `Player ${n}`, kind: "human" as const, tokenHash: `${n}`.padStart(64, "0") });
const round = (prefix: string, n: number): TournamentPairing[] =>
  Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}xxxxxxxx`, first: seat(2 * i), second: seat(2 * i + 1) }));

describe("Tournament round creation", function () {
  this.timeout(30_000);
  let server: RunningServer;

  before(async () => {
    server = await bootServer();
  });

  /** The games service over the server's store and matchmaker, its `createGames` replaced by `createGames`. */
  const serviceWith = (createGames: (original: GamesPort["createGames"], g: GameRecord[]) => Promise<void>) => {
    const games: GamesPort = Object.create(server.store.games) as GamesPort;
    const original = server.store.games.createGames.bind(server.store.games);
    games.createGames = (g) => createGames(original, g);
    return new GameCreation(games, new RoomAccess(server.store.games, server.log), {} as PlayerService, {} as GameReads, server.url);
  };
  after(async () => {
    await server?.close();
  });

  it("stores the round in one write, opens every game's room, seats `first` as the first mover, and is idempotent", async () => {
    const games = round("rA", 4);
    let writes = 0;
    const service = serviceWith((original, g) => {
      writes++;
      return original(g);
    });
    const { firstSeats: seats, unopened } = await service.createForTournamentRound("t_roundtest01", "classic", games, 60);
    assert.equal(unopened, undefined);
    assert.equal(writes, 1);
    for (const g of games) {
      const rec = (await server.store.games.getGame(g.id))!;
      assert.equal(rec.status, "active");
      assert.equal(rec.turnSeconds, 60);
      assert.equal(rec.firstPlayer, seats.get(g.id));
      assert.equal(rec.seats[rec.firstPlayer!]!.playerId, g.first.playerId);
      assert.ok(await matchMaker.getRoomById(g.id), `room of ${g.id}`);
    }
    const again = await service.createForTournamentRound("t_roundtest01", "classic", games, 60);
    assert.deepEqual(again.firstSeats, seats);
    assert.equal(writes, 2, "nothing left to store: an empty write");
  });

  it("stores game by game, each once, when another process stored part of the round meanwhile", async () => {
    const games = round("rB", 3);
    let theirs: GameRecord | undefined;
    // Another process stores the round's second game between this one's look and its write.
    const service = serviceWith(async (original, g) => {
      theirs = { ...g[1], firstPlayer: g[1].firstPlayer === "A" ? "B" : "A", seats: { A: g[1].seats.B, B: g[1].seats.A } };
      await server.store.games.createGame(theirs);
      return original(g);
    });
    const { firstSeats: seats } = await service.createForTournamentRound("t_roundtest02", "classic", games);
    for (const g of games) assert.ok(await server.store.games.getGame(g.id), g.id);
    assert.equal(seats.get(games[1].id), theirs!.firstPlayer, "the stored game's first mover, not the refused one's");
    assert.deepEqual((await server.store.games.getGame(games[1].id))!.seats, theirs!.seats);
    for (const g of games) assert.ok(await matchMaker.getRoomById(g.id), `room of ${g.id}`);
  });
});
