/**
 * Client assets: the committed files are exactly what the build script makes from the engine's data, and
 * the server lists every one in the manifest and serves it with its type, a strong ETag and a 304.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, sep } from "node:path";
import { ASSETS_DIR, generateAssets, IMMUTABLE, VOICE_LINES } from "../../src/services/assets";
import { CATALOGUE, CHAMPIONS } from "../../src/engine";
import type { RunningServer } from "../../src/server";
import { bootServer } from "../support/server";

const committed = (): string[] =>
  readdirSync(ASSETS_DIR, { recursive: true, encoding: "utf8" })
    .filter((p) => statSync(join(ASSETS_DIR, p)).isFile())
    .map((p) => p.split(sep).join("/"));

/** Checks the header of a 16-bit PCM WAV and that its data chunk fills the file. */
function assertPcmWav(buf: Buffer, what: string) {
  assert.equal(buf.toString("ascii", 0, 4), "RIFF", what);
  assert.equal(buf.toString("ascii", 8, 12), "WAVE", what);
  assert.equal(buf.readUInt16LE(20), 1, `${what} is PCM`);
  assert.equal(buf.readUInt16LE(34), 16, `${what} is 16-bit`);
  assert.ok(buf.length > 1000 && buf.length < 200_000, `${what} is small but not empty (${buf.length} bytes)`);
}

describe("ClientAssets", function () {
  this.timeout(30_000);

  describe("build output", () => {
    it("has the committed files up to date with the generator", () => {
      const wanted = generateAssets();
      for (const [path, bytes] of wanted) {
        assert.ok(existsSync(join(ASSETS_DIR, path)), `${path} is missing: run npm run build:assets`);
        assert.ok(readFileSync(join(ASSETS_DIR, path)).equals(bytes), `${path} is out of date: run npm run build:assets`);
      }
      const extra = committed().filter((p) => !wanted.has(p) && !p.startsWith("voices/"));
      assert.deepEqual(extra, [], "files no build makes");
    });

    it("has art for every card and champion, real WAV sounds and voices", () => {
      const files = new Set(committed());
      for (const c of CATALOGUE) assert.ok(files.has(`cards/${c.id}.svg`), c.id);
      for (const id of Object.keys(CHAMPIONS)) assert.ok(files.has(`champions/${id}.svg`), id);
      for (const s of ["place", "capture", "win", "lose"]) assertPcmWav(readFileSync(join(ASSETS_DIR, `sounds/${s}.wav`)), s);
      for (const v of Object.keys(VOICE_LINES)) assertPcmWav(readFileSync(join(ASSETS_DIR, `voices/${v}.wav`)), `voice ${v}`);
      const anim = JSON.parse(readFileSync(join(ASSETS_DIR, "animations.json"), "utf8")).animations;
      for (const name of ["place", "capture", "flip", "win"]) assert.ok(anim[name].durationMs > 0 && anim[name].easing, name);
    });
  });

  describe("served", () => {
    let server: RunningServer;
    before(async () => {
      server = await bootServer();
    });
    after(async () => server?.close());

    it("lists every committed file in the manifest with its size and sha256", async () => {
      const res = await fetch(`${server.url}/api/v1/clients/manifest`);
      assert.equal(res.status, 200);
      assert.match(res.headers.get("ratelimit-policy") ?? "", /q=120/);
      assert.match(res.headers.get("etag") ?? "", /^"[0-9a-f]{64}"$/);
      const manifest = (await res.json()) as { assets: Array<{ path: string; type: string; bytes: number; sha256: string; url: string }> };
      assert.deepEqual(manifest.assets.map((a) => a.path).sort(), committed().sort());
      for (const a of manifest.assets) {
        const body = readFileSync(join(ASSETS_DIR, a.path));
        assert.equal(a.bytes, body.length, a.path);
        assert.equal(a.sha256, createHash("sha256").update(body).digest("hex"), a.path);
      }
      const again = await fetch(`${server.url}/api/clients/manifest`, { headers: { "if-none-match": res.headers.get("etag")! } });
      assert.equal(again.status, 304);
    });

    it("serves every asset with its type, a strong ETag, immutable caching and 304 on If-None-Match", async () => {
      const manifest = (await (await fetch(`${server.url}/api/v1/clients/manifest`)).json()) as {
        assets: Array<{ path: string; type: string; sha256: string; url: string }>;
      };
      const expected: Record<string, RegExp> = {
        svg: /^image\/svg\+xml/,
        json: /^application\/json/,
        wav: /^audio\/wav$/,
        woff2: /^font\/woff2$/,
        txt: /^text\/plain/,
      };
      for (const a of manifest.assets) {
        assert.equal(a.url, `${server.url}/api/v1/clients/assets/${a.path}`);
        const res = await fetch(a.url);
        assert.equal(res.status, 200, a.path);
        assert.match(res.headers.get("content-type") ?? "", expected[a.path.split(".").pop()!], a.path);
        assert.equal(res.headers.get("content-type"), a.type, a.path);
        assert.equal(res.headers.get("etag"), `"${a.sha256}"`, a.path);
        assert.equal(res.headers.get("cache-control"), IMMUTABLE, a.path);
        assert.ok(res.headers.get("ratelimit"), a.path);
        const body = Buffer.from(await res.arrayBuffer());
        assert.equal(createHash("sha256").update(body).digest("hex"), a.sha256, a.path);
        const cached = await fetch(a.url, { headers: { "if-none-match": `"${a.sha256}"` } });
        assert.equal(cached.status, 304, a.path);
        assert.equal(cached.headers.get("etag"), `"${a.sha256}"`);
        assert.equal((await cached.arrayBuffer()).byteLength, 0);
      }
      const stale = await fetch(manifest.assets[0].url, { headers: { "if-none-match": '"0000"' } });
      assert.equal(stale.status, 200);
    });

    it("answers unknown and traversing paths with a problem document", async () => {
      for (const p of ["nope.svg", "../package.json", "%2e%2e/package.json", "cards/../../../package.json"]) {
        const res = await fetch(`${server.url}/api/v1/clients/assets/${p}`);
        assert.equal(res.status, 404, p);
        assert.match(res.headers.get("content-type") ?? "", /problem\+json/);
      }
    });
  });
});
