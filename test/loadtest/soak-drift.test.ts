import { strict as assert } from "node:assert";
import type { HttpClient } from "../../loadtest/lib/common";
import { SoakSampler, type SoakSample } from "../../loadtest/lib/soak";

const sample = (t: number, rssMb: number): SoakSample => ({
  t,
  rssMb,
  heapUsedMb: rssMb / 2,
  cpuPct: 10,
  generatorHeapMb: 5,
  movesPerSec: 20,
  cpuMsPerMove: 5,
});

function sampler(samples: SoakSample[]): SoakSampler {
  const s = new SoakSampler({} as HttpClient, Date.now());
  s.samples.push(...samples);
  return s;
}

describe("Unit: the soak's drift between its baseline and end windows", () => {
  it("compares the median of the baseline window with the median of the end window", () => {
    // 20 minutes: baseline from minute 5, 5-minute windows.
    const xs = Array.from({ length: 21 }, (_, i) => sample(i * 60, i < 10 ? 100 : 110));
    const d = sampler(xs).drift(1200)!;
    assert.deepEqual(d.rssMb, [100, 110]);
    assert.equal(d.rssPct, 10);
    assert.equal(d.baselineT, 300);
    assert.equal(d.endT, 1200);
  });

  it("opens the baseline window at the first sample from its start, even when none falls inside the nominal window", () => {
    // 8 s with samples 2 to 3 s apart: the nominal baseline window is 2.7 s to 4 s, and no sample is in it.
    const d = sampler([sample(2, 100), sample(5, 100), sample(6, 120), sample(8, 130)]).drift(8);
    assert.ok(d, "a drift is reported");
    assert.equal(d.baselineT, 5);
    assert.deepEqual(d.rssMb, [110, 130]);
  });

  it("reports no drift when the baseline and the end would be the same sample, or there are no samples", () => {
    assert.equal(sampler([sample(1, 100), sample(8, 100)]).drift(8), null);
    assert.equal(sampler([]).drift(8), null);
  });
});
