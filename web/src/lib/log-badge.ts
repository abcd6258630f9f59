// A finished game's place in the public log, shown on the replay and game pages and checked in the browser
// (web/src/lib/log-proof.ts): "in the public log at #N", then "verified" only when the entry's audit path leads
// to the signed head's root and the head's signature is not refuted.
import { api, el, errorText, seatHeaders } from "./api";
import type { GameRecord, InclusionProof, LogEntries, LogKey, TreeHead } from "./api-types";
import { checkProof } from "./log-proof";

/** How often, and how far apart, a game not yet in the log is asked for again (appends are batched a second apart). */
const LOG_TRIES = 6;
const LOG_RETRY_MS = 1000;

/**
 * The game's place in the public log, checked here: the newest signed head, the game's inclusion proof for
 * that head's size and the entry as served; the leaf hash and the root are recomputed with Web Crypto and
 * compared with the head's root, and the head's signature is checked where the browser has Ed25519.
 */
/** A finished game's record names its index in the public log once its batch is appended. */
type LoggedRecord = Pick<GameRecord, "status" | "logIndex" | "public">;

async function verifyLog(out: HTMLElement, gameId: string, record: LoggedRecord | null, tries = LOG_TRIES): Promise<void> {
  const id = encodeURIComponent(gameId);
  if (record?.public === false) return void out.replaceChildren(el("span", { class: "muted", text: "A private game is not in the public log." }));
  // The record names the game's index once its batch is appended; asking for the proof before would be a 404.
  const index = record?.logIndex;
  const head = index === undefined ? null : (await api<TreeHead>("GET", "/log/head")).body;
  if (index === undefined || !head || head.size <= index) {
    out.dataset.verified = "pending";
    if (tries <= 1)
      return void out.replaceChildren(
        el("span", { class: "muted", text: "Not in the public log yet: finished games are appended within a second or so. Reload to check again." }),
      );
    out.replaceChildren(el("span", { class: "muted", text: "Not in the public log yet (appended within a second or so): checking again…" }));
    await new Promise((r) => setTimeout(r, LOG_RETRY_MS));
    return verifyLog(out, gameId, (await api<LoggedRecord>("GET", `/games/${id}`, undefined, undefined, seatHeaders(gameId))).body, tries - 1);
  }
  const proof = (await api<InclusionProof>("GET", `/log/games/${id}/proof?treeSize=${head.size}`)).body;
  const [key, entries] = await Promise.all([
    api<LogKey>("GET", "/log/key").then((x) => x.body),
    api<LogEntries>("GET", `/log/entries?from=${proof.index}&count=1`).then((x) => x.body.entries),
  ]);
  const served = entries.find((x) => x.index === proof.index);
  const check = served
    ? // The key the head names: after a rotation an older head is another key's.
      await checkProof({
        head,
        publicKeyPem: key.keys.find((k) => k.keyId === head.keyId)?.publicKey ?? key.publicKey,
        entry: served.entry,
        index: proof.index,
        path: proof.path,
      })
    : { included: false, signature: "unchecked" as const };
  const verified = check.included && check.signature !== "invalid";
  const signature =
    check.signature === "verified"
      ? "The head's Ed25519 signature was verified in your browser too."
      : check.signature === "invalid"
        ? "The head's signature does not match the log's key."
        : "This browser has no Ed25519 in Web Crypto: the head's signature is checked by npm run log:verify.";
  out.replaceChildren(
    el("span", { text: `in the public log at #${proof.index}` }),
    " ",
    el("span", { class: verified ? "verified" : "unverified", text: verified ? "✔ verified" : "✘ not verified" }),
    el("br"),
    el("span", {
      class: "muted small",
      text: check.included
        ? `The entry's hash and its audit path, computed in your browser, lead to the root of the signed head of ${head.size} entries. ${signature}`
        : `The entry and its audit path do not lead to the root of the signed head of ${head.size} entries. ${signature}`,
    }),
    " ",
    el("a", { class: "small", href: `/api/v1/log/games/${id}/proof?treeSize=${head.size}`, text: "Proof as JSON" }),
  );
  out.dataset.verified = String(verified);
  out.dataset.logIndex = String(proof.index);
  out.dataset.signature = check.signature;
}

/** Fills `out` with the game's log place and its check; `record` is the game's record when the page has it. */
export function showLogProof(out: HTMLElement, gameId: string, record: LoggedRecord | null): void {
  if (!globalThis.crypto?.subtle)
    return void out.replaceChildren(el("span", { class: "muted", text: "This browser cannot check it here (Web Crypto needs HTTPS)." }));
  void verifyLog(out, gameId, record).catch((e: unknown) => void (out.textContent = `Could not check: ${errorText(e)}`));
}
