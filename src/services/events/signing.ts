/**
 * Standard Webhooks signing, done by the `standardwebhooks` package itself so that what we send is exactly
 * what its `Webhook.verify` (and every other implementation of the scheme) accepts.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import { Webhook } from "standardwebhooks";

export const newEventId = (): string => `evt_${randomBytes(16).toString("base64url")}`;
export const newSubscriptionId = (): string => `sub_${randomBytes(16).toString("base64url")}`;

/** The headers of one signed POST. The timestamp is the signing time, so each retry is signed anew. */
export function signedHeaders(secret: string, eventId: string, subscriptionId: string, body: string, at: Date): Record<string, string> {
  return {
    "webhook-id": eventId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(secret).sign(eventId, at, body),
    "x-mcp-subscription-id": subscriptionId,
  };
}

/** `whsec_` followed by canonical base64 of 24 to 64 bytes (the spec's secret rule). */
export function isValidSecret(secret: string): boolean {
  if (!secret.startsWith("whsec_")) return false;
  const b64 = secret.slice("whsec_".length);
  if (b64.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) return false;
  const bytes = Buffer.from(b64, "base64");
  // Re-encoding rejects non-canonical padding bits that Buffer silently ignores.
  return bytes.length >= 24 && bytes.length <= 64 && bytes.toString("base64") === b64;
}

/** Constant-time equality of two strings (secrets, ids, challenges). */
export function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a, "utf8");
  const y = Buffer.from(b, "utf8");
  return x.length === y.length && timingSafeEqual(x, y);
}
