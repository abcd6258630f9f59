/**
 * Capabilities must not leave the process in logs or traces: whoever reads one can act as its holder. They
 * are recognised by their prefixes (seat tokens `pt_`, agent-challenge tokens `ch_`, bot keys `bk_`, webhook
 * secrets `whsec_`) wherever they appear in a text, and by position in the paths that carry one as a segment
 * (`/agent/challenge/{token}`, the web page `/challenge/{token}`). Invite codes and ids are not capabilities
 * and stay readable.
 */

export const REDACTED = "[redacted]";

/**
 * A prefixed capability: the prefix stays (it says what was there), the rest goes. A secret is base64, and in
 * a URL percent-encoded, so its class takes both.
 */
const CAPABILITY = /\b(pt|ch|bk)_[A-Za-z0-9_-]{8,}|\bwhsec_[A-Za-z0-9+/=_%-]{8,}/g;

/** Path segments that are a capability whatever they look like (tokens made before the prefixes existed). */
const CAPABILITY_SEGMENT = /(\/challenge\/)[^/?#]+/g;

/** `text` with every prefixed capability in it replaced. */
export function redactText(text: string): string {
  return text.replace(CAPABILITY, (found: string, prefix: string | undefined) => `${prefix ?? "whsec"}_${REDACTED}`);
}

/** A request path with its capability segments and any prefixed capability replaced. */
export function redactPath(path: string): string {
  return redactText(path.replace(CAPABILITY_SEGMENT, `$1${REDACTED}`));
}
