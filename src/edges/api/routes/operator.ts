/**
 * Colyseus' operator tools, mounted under /colyseus when OPERATOR_TOOLS is on (off by default) and only
 * behind the operator's token: the monitor (/colyseus/monitor: every room of every process, its clients
 * and state, inspect and dispose) and the playground (/colyseus/playground: join a room as a client and
 * send it messages). Both can act on live games, so they are never open. The packages are loaded only
 * when the tools are on: the monitor extends Colyseus' Room class when it is imported. They are loaded with
 * require, as the server loads @colyseus/core: under tsx an `import()` would load a second copy of the core,
 * whose matchmaker was never started.
 */
import type * as Monitor from "@colyseus/monitor";
import type * as Playground from "@colyseus/playground";
import { Router } from "express";
import { requireToken } from "../../../services/operator/auth";

export function operatorTools(token: string): Router {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { monitor } = require("@colyseus/monitor") as typeof Monitor;
  const { playground } = require("@colyseus/playground") as typeof Playground;
  /* eslint-enable @typescript-eslint/no-require-imports */
  const router = Router();
  router.use(requireToken(token, "The Colyseus monitor and playground"));
  router.use("/monitor", monitor({ columns: ["roomId", "name", "clients", "maxClients", "locked", "elapsedTime", "processId", "publicAddress"] }));
  router.use("/playground", playground());
  return router;
}
