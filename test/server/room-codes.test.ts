/**
 * The numbers rooms refuse and close with (src/shared/errors.ts, ROOM_CODES) are part of the wire: clients read them.
 * They are derived from the error table where an error code maps; here they are held to the numbers clients
 * know, and matchmaking's problem documents read either form back to the same error code and detail.
 */
import { strict as assert } from "node:assert";
import { ERROR_CODES, ROOM_CODES } from "../../src/shared/errors";
import { matchmakingRefusal } from "../../src/edges/api/matchmake-problems";
import { createLogger } from "../../src/shared/logger";

describe("Unit: room refusal and close codes", () => {
  it("keeps the numbers clients know", () => {
    assert.deepEqual(ROOM_CODES.close, {
      bad_request: 4400,
      unauthorized: 4401,
      forbidden: 4403,
      not_found: 4404,
      conflict: 4409,
      code_expired: 4410,
      rate_limited: 4429,
      unavailable: 4503,
    });
    assert.deepEqual(ROOM_CODES.http, {
      bad_request: 400,
      unauthorized: 401,
      forbidden: 403,
      not_found: 404,
      conflict: 409,
      code_expired: 410,
      rate_limited: 429,
      unavailable: 503,
    });
    assert.equal(ROOM_CODES.policy, 4008);
    assert.equal(ROOM_CODES.gameMoved, 4012);
  });

  it("turns a room's refusal, as a status or as a close code, into the problem of its error code with the room's own words", () => {
    const log = createLogger("silent");
    for (const [code, status] of Object.entries(ROOM_CODES.http) as [keyof typeof ROOM_CODES.http, number][]) {
      if (status >= 500) continue; // a 503 is the server shutting down, worded by matchmaking itself
      for (const sent of [status, ROOM_CODES.close[code]]) {
        const e = matchmakingRefusal(sent, JSON.stringify({ code: sent, error: `no tournament with id t_${sent}` }), log);
        assert.equal(e.code, code, `${sent}`);
        assert.equal(e.status, ERROR_CODES[code].status);
        assert.equal(e.detail, `no tournament with id t_${sent}`);
      }
    }
    assert.equal(matchmakingRefusal(ROOM_CODES.close.unavailable, "{}", log).code, "unavailable");
  });
});
