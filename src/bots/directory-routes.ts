/** `GET /api/v1/bots`: the bot directory (./directory.ts), paged with `limit` and `offset`. */
import { Router } from "express";
import { z } from "zod";
import { parse, queryInt } from "../validation";
import type { BotDirectory } from "./directory";

export const ListBotsQuery = z.object({ limit: queryInt(1, 100, 20), offset: queryInt(0, 100_000, 0) }).strict();

export function botDirectoryRouter(directory: BotDirectory): Router {
  const r = Router();
  r.get("/bots", async (req, res) => {
    const q = parse(ListBotsQuery, req.query, "query");
    res.json(await directory.list(q.limit, q.offset));
  });
  return r;
}
