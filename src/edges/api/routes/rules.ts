/** GET /rules and /rules/{version}: the rules as data, read from the engine (src/engine/rules-data.ts). */
import { Router } from "express";
import { AppError } from "../../../shared/errors";
import { allRulesData, isRulesVersion, rulesData } from "../../../engine";
import * as R from "../openapi/responses";
import { reply } from "../reply";

export function rulesRouter(): Router {
  const r = Router();
  // The rules of a version never change, so the bodies are built once.
  const all = allRulesData();
  r.get("/rules", (_req, res) => {
    reply(res.set("Cache-Control", "public, max-age=3600"), 200, R.Rules, all);
  });
  r.get("/rules/:version", (req, res) => {
    const v = Number(req.params.version);
    if (!/^\d{1,2}$/.test(String(req.params.version)) || !isRulesVersion(v)) {
      throw new AppError(
        "not_found",
        `no rules version ${String(req.params.version).slice(0, 12)}: versions are ${all.versions.map((x) => x.version).join(", ")}`,
      );
    }
    reply(res.set("Cache-Control", "public, max-age=3600"), 200, R.RulesVersion, rulesData(v));
  });
  return r;
}
