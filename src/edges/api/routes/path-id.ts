/**
 * The `:id` of a REST path, checked for the shape such ids have before anything is looked up: an id that
 * cannot exist is not_found at once, naming what was asked for. The shapes of the ids every router takes are
 * written here once.
 */
import type { Request } from "express";
import { AppError } from "../../../shared/errors";

/** A game's id (also a room's id). */
export const GAME_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** A player's id (a friend code), a bot's too. */
export const PLAYER_ID = /^[A-Za-z0-9_-]{1,40}$/;

/** The path's `:id` when `shape` accepts it; otherwise not_found: "no `what` with id ...". */
export function pathId(req: Request, shape: RegExp, what: string): string {
  const id = String(req.params.id);
  if (!shape.test(id)) throw new AppError("not_found", `no ${what} with id ${id}`);
  return id;
}
