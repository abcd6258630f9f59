/**
 * Builds the client assets into public/assets from the engine's own data (cards, champions) and the
 * design tokens in src/services/assets; the output is committed and served as is. Voices are spoken by espeak-ng
 * when it is installed (`apt-get install -y espeak-ng`); without it the committed voices are kept, since
 * its output differs between versions and the other assets must stay reproducible anywhere.
 *
 *   npm run build:assets            write everything
 *   npm run build:assets -- --check exit 1 when the committed files differ from a fresh build
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, sep } from "node:path";
import { ASSETS_DIR, generateAssets, VOICE_LINES } from "../src/services/assets";

function espeak(): string | null {
  for (const bin of ["espeak-ng", "espeak"]) {
    try {
      execFileSync(bin, ["--version"], { stdio: "ignore" });
      return bin;
    } catch {
      // not installed under this name
    }
  }
  return null;
}

function voices(bin: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const tmp = join(tmpdir(), `voices-${process.pid}.wav`);
  try {
    for (const [id, text] of Object.entries(VOICE_LINES)) {
      execFileSync(bin, ["-v", "en-us", "-s", "150", "-w", tmp, text], { stdio: "ignore" });
      out.set(`voices/${id}.wav`, readFileSync(tmp));
    }
  } finally {
    rmSync(tmp, { force: true });
  }
  return out;
}

function committed(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((p) => statSync(join(dir, p)).isFile())
    .map((p) => p.split(sep).join("/"));
}

function main(): number {
  const check = process.argv.includes("--check");
  const wanted = generateAssets();
  const bin = espeak();
  if (bin && !check) for (const [path, bytes] of voices(bin)) wanted.set(path, bytes);
  const keepVoices = !bin || check;
  const stale = committed(ASSETS_DIR).filter((p) => !wanted.has(p) && !(keepVoices && p.startsWith("voices/")));
  const changed = [...wanted].filter(([p, bytes]) => !existsSync(join(ASSETS_DIR, p)) || !readFileSync(join(ASSETS_DIR, p)).equals(bytes));
  if (check) {
    for (const [p] of changed) process.stderr.write(`out of date: ${p}\n`);
    for (const p of stale) process.stderr.write(`not generated: ${p}\n`);
    return changed.length || stale.length ? 1 : 0;
  }
  for (const p of stale) rmSync(join(ASSETS_DIR, p));
  for (const [p, bytes] of changed) {
    mkdirSync(dirname(join(ASSETS_DIR, p)), { recursive: true });
    writeFileSync(join(ASSETS_DIR, p), bytes);
  }
  const where = relative(process.cwd(), ASSETS_DIR) || ASSETS_DIR;
  process.stdout.write(
    `${wanted.size} assets in ${where}: ${changed.length} written, ${stale.length} removed${bin ? "" : " (espeak-ng not found: voices kept)"}\n`,
  );
  return 0;
}

process.exit(main());
