/**
 * Callback verification: before the first delivery to a URL the service proves that the URL answers for the
 * subscriber (it echoes a single-use challenge signed with the subscriber's secret), so a subscription cannot
 * aim deliveries at a third party that never asked for them.
 */
import { randomBytes } from "node:crypto";
import type { CallbackClient } from "./http-client";
import { newEventId, sameText, signedHeaders } from "./signing";

export type RefusalReason = "not_https" | "forbidden_address" | "challenge_failed" | "timeout" | "unreachable" | "bad_status";

export type VerificationResult = { ok: true } | { ok: false; reason: RefusalReason; detail: string };

/** A URL that passed within this window is not asked again. */
export const VERIFIED_URL_TTL_MS = 24 * 3600 * 1000;

function echoedChallenge(body: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === "object" && typeof (parsed as { challenge?: unknown }).challenge === "string") {
      return (parsed as { challenge: string }).challenge;
    }
  } catch {
    // not JSON: reported as challenge_failed below
  }
  return undefined;
}

/** POSTs a signed `{type: "verification", challenge}` and checks the 2xx JSON echo. */
export async function verifyCallback(client: CallbackClient, url: string, secret: string, subscriptionId: string, now: Date): Promise<VerificationResult> {
  const challenge = randomBytes(24).toString("base64url");
  const body = JSON.stringify({ type: "verification", challenge });
  const res = await client.post(url, body, signedHeaders(secret, newEventId(), subscriptionId, body, now));
  if (!res.ok) return { ok: false, reason: res.reason, detail: res.detail };
  if (res.status < 200 || res.status > 299) {
    return { ok: false, reason: "bad_status", detail: `verification answered ${res.status}; a 2xx is required (redirects are not followed)` };
  }
  const echoed = echoedChallenge(res.body);
  if (echoed === undefined || !sameText(echoed, challenge)) {
    return { ok: false, reason: "challenge_failed", detail: 'the answer must be JSON {"challenge": <the challenge sent>}' };
  }
  return { ok: true };
}
