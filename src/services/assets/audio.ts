/**
 * Sound effects synthesized from a few sine partials with an attack-decay envelope, written as 16-bit mono
 * PCM WAV. No randomness and integer rounding only, so the bytes are the same on every machine.
 */

export const SAMPLE_RATE = 22050;

interface Note {
  freq: number;
  startS: number;
  durS: number;
  gain: number;
  glideTo?: number;
}

/** Renders notes into one buffer of samples in [-1, 1]. */
function render(notes: Note[], totalS: number): Float64Array {
  const out = new Float64Array(Math.ceil(totalS * SAMPLE_RATE));
  for (const n of notes) {
    const start = Math.round(n.startS * SAMPLE_RATE);
    const len = Math.round(n.durS * SAMPLE_RATE);
    let phase = 0;
    for (let i = 0; i < len && start + i < out.length; i++) {
      const t = i / len;
      const f = n.glideTo ? n.freq + (n.glideTo - n.freq) * t : n.freq;
      phase += (2 * Math.PI * f) / SAMPLE_RATE;
      // 5 ms attack then an exponential decay: a click-free, percussive shape.
      const env = Math.min(1, i / (0.005 * SAMPLE_RATE)) * Math.exp(-4 * t);
      out[start + i] += n.gain * env * (Math.sin(phase) + 0.3 * Math.sin(2 * phase));
    }
  }
  return out;
}

/** A canonical 44-byte-header PCM WAV. */
export function wav(samples: Float64Array): Buffer {
  const data = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i++) data.writeInt16LE(Math.round(Math.max(-1, Math.min(1, samples[i])) * 32767), i * 2);
  const h = Buffer.alloc(44);
  h.write("RIFF", 0, "ascii");
  h.writeUInt32LE(36 + data.length, 4);
  h.write("WAVEfmt ", 8, "ascii");
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(1, 22); // mono
  h.writeUInt32LE(SAMPLE_RATE, 24);
  h.writeUInt32LE(SAMPLE_RATE * 2, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write("data", 36, "ascii");
  h.writeUInt32LE(data.length, 40);
  return Buffer.concat([h, data]);
}

const C5 = 523.25,
  E5 = 659.25,
  G5 = 783.99,
  C6 = 1046.5,
  A4 = 440,
  F4 = 349.23,
  D4 = 293.66;

export const SOUNDS: Record<"place" | "capture" | "win" | "lose", () => Buffer> = {
  place: () => wav(render([{ freq: 180, glideTo: 120, startS: 0, durS: 0.09, gain: 0.7 }], 0.1)),
  capture: () =>
    wav(
      render(
        [
          { freq: 520, glideTo: 880, startS: 0, durS: 0.12, gain: 0.45 },
          { freq: 880, startS: 0.1, durS: 0.12, gain: 0.35 },
        ],
        0.24,
      ),
    ),
  win: () =>
    wav(
      render(
        [C5, E5, G5, C6].map((freq, i) => ({ freq, startS: i * 0.12, durS: 0.3, gain: 0.35 })),
        0.7,
      ),
    ),
  lose: () =>
    wav(
      render(
        [A4, F4, D4].map((freq, i) => ({ freq, startS: i * 0.16, durS: 0.32, gain: 0.35 })),
        0.72,
      ),
    ),
};
