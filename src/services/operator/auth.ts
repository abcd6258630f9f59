/**
 * The operator's token (METRICS_TOKEN) guards /metrics and the Colyseus tools. A scraper or script sends
 * `Authorization: Bearer <token>`; a browser, which cannot add that header to the pages it loads, answers
 * a Basic prompt with the token as its password (any user name) and resends it with every request.
 */
import type { NextFunction, Request, Response } from "express";
import { AppError } from "../../shared/errors";
import { safeEqualHex, sha256Hex } from "../../store";

/** The token a request presents, as a Bearer credential or as the password of a Basic one. */
function presented(req: Request): string | undefined {
  const header = req.get("authorization") ?? "";
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
  if (bearer) return bearer;
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header)?.[1];
  if (!basic) return undefined;
  const decoded = Buffer.from(basic, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  return colon >= 0 ? decoded.slice(colon + 1) : undefined;
}

/** Whether the request presents the token whose sha256 is `expectedHash` (compared in constant time). */
export function presentsToken(req: Request, expectedHash: string): boolean {
  const token = presented(req);
  return token !== undefined && safeEqualHex(sha256Hex(token), expectedHash);
}

/** Middleware: lets through requests that present `token`; others get 401 with a Basic prompt. */
export function requireToken(token: string, what: string) {
  const expected = sha256Hex(token);
  return (req: Request, res: Response, next: NextFunction) => {
    if (presentsToken(req, expected)) return next();
    res.setHeader("WWW-Authenticate", 'Basic realm="Tile Arena operator", charset="UTF-8"');
    throw new AppError(
      "unauthorized",
      `${what} needs the operator's token: \`Authorization: Bearer <METRICS_TOKEN>\`, or METRICS_TOKEN as the password at the browser's prompt`,
    );
  };
}
