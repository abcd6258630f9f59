/**
 * Guards callbacks against server-side request forgery: a subscriber chooses the URL, so without this the
 * service could be made to POST into its own network or a cloud metadata endpoint. The check runs where the
 * socket is opened (a custom `lookup`), so a name that resolved to a public address when subscribing and to
 * a private one later (DNS rebinding) is still refused.
 */
import dns from "node:dns";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";

/** Code of the error a guarded lookup fails with; the HTTP client maps it to `forbidden_address`. */
export const FORBIDDEN_ADDRESS_CODE = "EFORBIDDEN_ADDRESS";

/**
 * The range name of an address as ipaddr.js classifies it, after unwrapping IPv4-mapped IPv6
 * (::ffff:127.0.0.1 is 127.0.0.1 to the kernel). "invalid" when the text is not an address.
 */
export function addressRange(address: string): string {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(address);
  } catch {
    return "invalid";
  }
  if (ip.kind() === "ipv6") {
    const v6 = ip as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().range();
    // ::a.b.c.d (deprecated IPv4-compatible form) is not classified by ipaddr.js; treat it as reserved.
    const p = v6.parts;
    if (p.slice(0, 6).every((x) => x === 0) && v6.range() === "unicast") return "ipv4Compatible";
  }
  return ip.range();
}

/**
 * True for every address a callback may not reach: anything ipaddr.js does not call plain `unicast`
 * (loopback, private, link-local with 169.254.169.254, unique-local with fd00:ec2::254, carrier-grade NAT,
 * unspecified, multicast, broadcast, reserved, translation prefixes that embed IPv4, ...). An allow-list of
 * one range is safer than a deny-list that must name every special block.
 */
export const isForbiddenAddress = (address: string): boolean => addressRange(address) !== "unicast";

/** True when the host part of a URL is an IP literal (Node connects to those without calling `lookup`). */
export const isIpLiteral = (host: string): boolean => ipaddr.isValid(stripBrackets(host));

export const stripBrackets = (host: string): string => (host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host);

const forbiddenError = (hostname: string, address: string): NodeJS.ErrnoException =>
  Object.assign(new Error(`${hostname} resolves to a forbidden address (${address})`), { code: FORBIDDEN_ADDRESS_CODE });

/**
 * A `lookup` for http(s).request that resolves as Node would and fails when any resolved address is
 * forbidden. Any, not all: a name that answers with both a public and a private address is refused
 * rather than trusted to pick the public one.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err);
      if (addresses.length === 0) {
        return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }));
      }
      const bad = allowPrivate ? undefined : addresses.find((a) => isForbiddenAddress(a.address));
      if (bad) return callback(forbiddenError(hostname, bad.address));
      if (options.all) return callback(null, addresses);
      return callback(null, addresses[0].address, addresses[0].family);
    });
  }) as LookupFunction;
}
