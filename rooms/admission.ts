/**
 * Who a game's room lets in. A seat's holder always gets in: Colyseus locks a room once its clients and
 * pending reservations reach `maxClients`, and a lock refuses everyone, seats included, so a game room's
 * `maxClients` is never reached (ADMIT_ALL) and spectators are capped here instead, when their socket
 * joins: at most `spectatorsPerGame` in the room and `spectatorsPerAddress` from one client address.
 */
import { ServerError, type Client } from "@colyseus/core";
import { DEFAULTS } from "../src/shared/config";
import { ROOM_CODES } from "../src/shared/errors";

export interface AdmissionLimits {
  /** Spectators one game admits (config SPECTATORS_PER_GAME). */
  spectatorsPerGame: number;
  /** Spectators one client address may have in one game (config SPECTATORS_PER_ADDRESS). */
  spectatorsPerAddress: number;
}

export const DEFAULT_ADMISSION: AdmissionLimits = { spectatorsPerGame: DEFAULTS.spectatorsPerGame, spectatorsPerAddress: DEFAULTS.spectatorsPerAddress };

/** A game room's `maxClients`: never reached, so Colyseus never locks a game against its seats. */
export const ADMIT_ALL = Number.MAX_SAFE_INTEGER;

/** The close and error code of a spectator refused by the cap (the 4xxx range is the application's). */
export const SPECTATORS_FULL = ROOM_CODES.close.rate_limited;

export class Admission {
  /** The spectators admitted, with their address; clients that left drop out of the room's list. Made with the first one. */
  private spectators?: WeakMap<Client, string>;

  constructor(private readonly limits: AdmissionLimits = DEFAULT_ADMISSION) {}

  /**
   * Admits `client` as a spectator of a room whose clients are `clients`, or throws the refusal. Counted
   * from the room's joined clients: spectators joining in the same instant may pass together.
   */
  spectator(clients: Iterable<Client>, client: Client, address: string | undefined): void {
    let inGame = 0;
    let fromAddress = 0;
    for (const c of clients) {
      const at = this.spectators?.get(c);
      if (at === undefined) continue;
      inGame++;
      if (address !== undefined && at === address) fromAddress++;
    }
    const { spectatorsPerGame, spectatorsPerAddress } = this.limits;
    if (inGame >= spectatorsPerGame) throw new ServerError(SPECTATORS_FULL, `this game admits ${spectatorsPerGame} spectators and has them; watch again later`);
    if (fromAddress >= spectatorsPerAddress) throw new ServerError(SPECTATORS_FULL, `this game admits ${spectatorsPerAddress} spectators from one address`);
    (this.spectators ??= new WeakMap()).set(client, address ?? "");
  }
}
