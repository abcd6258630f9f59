/**
 * The timers of one game: the turn clock, the wait for a second player, the house opponent's pause and
 * the grace period before a finished game's room is released. Plain Node timers (no room tick), so an
 * idle game costs nothing; set from the game after every change, so a restart resumes them.
 *
 * Every move pushes the turn deadline later, so the turn timer is not re-made on each one: the timer armed
 * for an earlier deadline is kept and, when it fires before the current deadline, armed again for the
 * rest. A game in steady play makes one turn timer per turn length instead of one per move.
 */
import type { Seat } from "../../../engine";
import { factsOf, type GameContext } from "../context";

export interface ClockHandlers {
  onTurnTimeout(): void;
  onWaitingExpired(): void;
  onHouseTurn(seat: Seat): void;
  onReleased(): void;
}

export interface ClockSettings {
  houseDelayMs: number;
  waitingGameTtlS: number;
  finishedGraceMs: number;
}

/** What the main timer waits for: the seat to move running out of time, the second player, the release. */
type MainWait = "turn" | "waiting" | "release";

export class GameClock {
  private main?: NodeJS.Timeout;
  private mainWait: MainWait | null = null;
  /** Epoch ms at which `main` fires. */
  private mainAt = 0;
  private house?: NodeJS.Timeout;
  private houseSeat: Seat = "A";
  /** Epoch ms when the seat to move runs out of time; 0 when no turn clock runs. */
  deadlineMs = 0;
  // Made once: arming a timer makes no closure.
  private readonly mainFired = () => this.onMain();
  private readonly houseFired = () => this.on.onHouseTurn(this.houseSeat);

  constructor(
    private readonly settings: ClockSettings,
    private readonly on: ClockHandlers,
  ) {}

  /** Sets every timer from the game as it is now. */
  arm(ctx: GameContext, now = Date.now()): void {
    this.clearHouse();
    const r = ctx.record;
    const status = factsOf(ctx).status;
    this.deadlineMs = 0;
    if (status === "finished") {
      this.setMain("release", now + this.settings.finishedGraceMs, now);
    } else if (status === "waiting") {
      this.setMain("waiting", Date.parse(r.createdAt) + this.settings.waitingGameTtlS * 1000, now);
    } else if (ctx.engine) {
      this.deadlineMs = Date.parse(r.lastMoveAt ?? r.startedAt ?? r.createdAt) + r.turnSeconds * 1000;
      // Kept when it fires no later than the new deadline (onMain re-arms it for the rest).
      if (!(this.mainWait === "turn" && this.mainAt <= this.deadlineMs)) this.setMain("turn", this.deadlineMs, now);
      const turn = ctx.engine.turn;
      if (r.seats[turn]?.kind === "house") {
        this.houseSeat = turn;
        this.house = setTimeout(this.houseFired, this.settings.houseDelayMs);
      }
    } else {
      this.clearMain();
    }
  }

  stop(): void {
    this.clearMain();
    this.clearHouse();
  }

  private setMain(wait: MainWait, at: number, now: number): void {
    clearTimeout(this.main);
    this.mainWait = wait;
    this.mainAt = at;
    this.main = setTimeout(this.mainFired, Math.max(0, at - now));
  }

  private clearMain(): void {
    clearTimeout(this.main);
    this.main = undefined;
    this.mainWait = null;
  }

  private clearHouse(): void {
    clearTimeout(this.house);
    this.house = undefined;
  }

  private onMain(): void {
    const wait = this.mainWait;
    this.main = undefined;
    this.mainWait = null;
    switch (wait) {
      case "turn": {
        const now = Date.now();
        if (now < this.deadlineMs) return this.setMain("turn", this.deadlineMs, now);
        return this.on.onTurnTimeout();
      }
      case "waiting":
        return this.on.onWaitingExpired();
      case "release":
        return this.on.onReleased();
      case null: // stopped or re-armed meanwhile
        return;
    }
  }
}
