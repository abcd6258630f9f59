import { newGame, seatView } from "./src/game";
import { createAiPool } from "./src/ai/pool";
(async () => {
  console.log("execArgv", process.execArgv);
  for (const threads of [0, 2]) {
    const pool = createAiPool(threads);
    const state = newGame({ ruleset: "classic" } as any, 7, "x");
    const t = performance.now();
    const lag: number[] = []; let last = performance.now();
    const iv = setInterval(() => { const n = performance.now(); lag.push(n - last - 5); last = n; }, 5);
    const r = await Promise.all([pool.decide(seatView(state, state.turn), "hard"), pool.decide(seatView(state, state.turn), "hard")]);
    clearInterval(iv);
    console.log(threads, r, (performance.now() - t).toFixed(0), "ms; max lag", Math.max(...lag, 0).toFixed(1));
    await pool.close();
  }
})();
