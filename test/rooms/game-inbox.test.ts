import { strict as assert } from "node:assert";
import type { Seat } from "../../src/engine";
import { fail, type Outcome } from "../../src/shared/errors";
import type { Rematches } from "../../src/services/games/rematch";
import type { GameActor } from "../../src/services/games/actor/game-actor";
import { answerFrame } from "../../rooms/game-inbox";
import { parseGameIn } from "../../rooms/messages";
import { newClientData, withinWindow } from "../../rooms/seat-clients";

/** What the inbox calls of the actor and the rematch service, recorded; each answers what the test sets. */
function fakes(answers: { play?: Outcome<unknown>; resign?: Outcome<unknown>; rematch?: Outcome<unknown> } = {}) {
  const calls: string[] = [];
  const hand = { cards: [], legal: ["E7@b3"] };
  const actor = {
    gameId: "G1",
    ctx: { record: { seats: { A: { tokenHash: "aa" }, B: { tokenHash: "bb" } } } },
    play: async (seat: Seat | null, body: unknown, from: string) => {
      calls.push(`play ${seat} ${JSON.stringify(body)} ${from}`);
      return answers.play ?? { ok: true, value: { move: { notation: "E7@b3", n: 3 }, settled: Promise.resolve(), hand } };
    },
    resignAs: async (seat: Seat) => {
      calls.push(`resign ${seat}`);
      return answers.resign ?? { ok: true, value: { settled: Promise.resolve() } };
    },
  } as unknown as GameActor<string>;
  const rematches = {
    offer: async (gameId: string, tokenHash: string | null) => (calls.push(`offer ${gameId} ${tokenHash}`), answers.rematch ?? { ok: true, value: {} }),
    decline: async (gameId: string, tokenHash: string | null) => (calls.push(`decline ${gameId} ${tokenHash}`), answers.rematch ?? { ok: true, value: {} }),
  } as unknown as Rematches;
  return { actor, rematches, calls, hand };
}

describe("Unit: a game room's answer to each frame", function () {
  it("acknowledges an accepted move to its sender with moved and the mover's hand; refuses a refused one", async function () {
    const { actor, rematches, calls, hand } = fakes();
    const answer = await answerFrame(actor, rematches, "c1", "A", parseGameIn("move", { move: "E7@b3" }));
    assert.deepEqual(answer, { type: "moved", notation: "E7@b3", n: 3, hand });
    assert.deepEqual(calls, ['play A {"move":"E7@b3"} c1'], "the sender is handed to the actor, to take its hand");
    const refused = fakes({ play: fail("not_your_turn", "it is B's turn") });
    assert.deepEqual(await answerFrame(refused.actor, refused.rematches, "c1", "A", parseGameIn("move", { move: "E7@b3" })), {
      type: "refused",
      code: "not_your_turn",
      detail: "it is B's turn",
    });
  });

  it("answers an accepted resignation or rematch with nothing, and refuses a spectator's resignation without asking the actor", async function () {
    const { actor, rematches, calls } = fakes();
    assert.equal(await answerFrame(actor, rematches, "c1", "B", parseGameIn("resign", undefined)), undefined);
    assert.equal(await answerFrame(actor, rematches, "c1", "B", parseGameIn("rematch", undefined)), undefined);
    assert.equal(await answerFrame(actor, rematches, "c1", "A", parseGameIn("declineRematch", undefined)), undefined);
    const spectator = await answerFrame(actor, rematches, "c2", null, parseGameIn("resign", undefined));
    assert.equal(spectator?.type === "refused" && spectator.code, "unauthorized");
    assert.deepEqual(calls, ["resign B", "offer G1 bb", "decline G1 aa"], "a rematch is offered and declined with the seat's token hash");
  });

  it("passes a refused rematch on, a spectator's with no token hash, and refuses an unexpected frame as bad_request", async function () {
    const { actor, rematches, calls } = fakes({ rematch: fail("not_found", "no rematch is on offer") });
    assert.deepEqual(await answerFrame(actor, rematches, "c2", null, parseGameIn("rematch", undefined)), {
      type: "refused",
      code: "not_found",
      detail: "no rematch is on offer",
    });
    assert.deepEqual(calls, ["offer G1 null"]);
    const unexpected = await answerFrame(actor, rematches, "c1", "A", parseGameIn("chat", "hi"));
    assert.equal(unexpected?.type === "refused" && unexpected.code, "bad_request");
  });
});

describe("Unit: a game room client's message window", function () {
  it("lets `perSecond` messages through in a second, refuses the next, and opens a new window a second later", function () {
    const data = newClientData("A", "t", 1_000);
    for (let i = 0; i < 20; i++) assert.equal(withinWindow(data, 20, 1_000 + i * 10), true, `message ${i + 1}`);
    assert.equal(withinWindow(data, 20, 1_999), false, "the 21st within the second");
    assert.equal(withinWindow(data, 20, 2_000), true, "a second after the window began");
    assert.equal(data.messages, 1);
  });
});
