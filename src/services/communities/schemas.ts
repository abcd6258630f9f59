/** Request schemas of the communities context: the leaderboards' page. */
import { z } from "zod";
import { queryInt } from "../../shared/validation";

export const PageQuery = z.object({ limit: queryInt(1, 100, 20), offset: queryInt(0, 100000, 0) }).strict();
