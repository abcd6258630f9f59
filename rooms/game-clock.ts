/**
 * The timers of one game: the turn clock, the wait for a second player, the house opponent's pause and
 * the grace period before a finished game's room is released. Plain Node timers (no room tick), so an
 * idle game costs nothing; re-armed from the record after every change, so a restart resumes them.
 */
import type { Seat } from "../src/game";
import { factsOf, type GameContext } from "../src/games/context";

export interface ClockHandlers {
  onTurnTimeout(): void;
  onWaitingExpired(): void;
  onHouseTurn(seat: Seat): void;
  onReleased(): void;
}

export interface ClockSettings { houseDelayMs: number; waitingGameTtlS: number; finishedGraceMs: number }

export class GameClock {
  private main?: NodeJS.Timeout;
  private house?: NodeJS.Timeout;
  /** Epoch ms when the seat to move runs out of time; 0 when no turn clock runs. */
  deadlineMs = 0;

  constructor(private readonly settings: ClockSettings, private readonly on: ClockHandlers) {}

  /** Sets every timer from the game as it is now. */
  arm(ctx: GameContext, now = Date.now()): void {
    this.stop();
    const r = ctx.record;
    const status = factsOf(ctx).status;
    this.deadlineMs = 0;
    if (status === "finished") {
      this.main = setTimeout(() => this.on.onReleased(), this.settings.finishedGraceMs);
    } else if (status === "waiting") {
      const left = Date.parse(r.createdAt) + this.settings.waitingGameTtlS * 1000 - now;
      this.main = setTimeout(() => this.on.onWaitingExpired(), Math.max(0, left));
    } else if (ctx.engine) {
      this.deadlineMs = Date.parse(r.lastMoveAt ?? r.startedAt ?? r.createdAt) + r.turnSeconds * 1000;
      this.main = setTimeout(() => this.on.onTurnTimeout(), Math.max(0, this.deadlineMs - now));
      const turn = ctx.engine.turn;
      if (r.seats[turn]?.kind === "house") this.house = setTimeout(() => this.on.onHouseTurn(turn), this.settings.houseDelayMs);
    }
  }

  stop(): void {
    clearTimeout(this.main);
    clearTimeout(this.house);
  }
}
