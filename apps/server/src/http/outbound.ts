import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Outgoing calls of the portal (webhooks: modules/webhooks/sender.ts; OpenID Connect discovery and
 * sign-in at a dealer's identity provider: oidc/upstream.ts as openid-client's `customFetch`; the
 * provider's back-channel logout, a client's jwks_uri and sector_identifier_uri: oidc/provider.ts,
 * its `fetch`) and the networks they may reach: with NODE_ENV=production, loopback, private,
 * link-local and other non-public addresses are refused unless OUTBOUND_ALLOW_PRIVATE_NETWORKS=true,
 * so that nobody makes the portal call into the network it runs in (server-side request forgery).
 * A host name is resolved and every address it has is checked; at send time the connection is made
 * only to an address checked by the same lookup (guardedLookup), so that a name cannot resolve to a
 * public address when checked and to a private one when called.
 *
 * Which address is public is the judgement of the `ipaddr.js` package (its ranges follow the IANA
 * special-purpose registries), not a list kept here: an address is public when its range() is
 * `unicast` and, for IPv6, it lies in 2000::/3, the global unicast space (this also refuses the
 * deprecated IPv4-compatible ::a.b.c.d). An IPv6 address that embeds an IPv4 address is judged by
 * that address too: IPv4-mapped (::ffff:a.b.c.d), NAT64 in its well-known prefix 64:ff9b::/96
 * (RFC 6052), 6to4 (2002::/16, the IPv4 address in bits 16-47) and Teredo (2001::/32, the server's
 * IPv4 address in bits 32-63 and the client's in the last 32 bits XOR 0xffffffff) are public only
 * when every IPv4 address they embed is; the local-use NAT64 prefix 64:ff9b:1::/48 (RFC 8215), whose
 * embedded address cannot be told without the operator's prefix length, is refused, as is whatever
 * is not an IP address.
 *
 * Redirects: no outgoing call follows one. The guarded fetch (outboundFetch) always asks for
 * `redirect: 'manual'` (or keeps the caller's 'error'), so a 3xx is the answer the caller gets:
 * discovery fails on it (openid-client wants a 200), so does a client's jwks_uri,
 * sector_identifier_uri or back-channel logout (oidc-provider wants a 200, or 204 for a logout),
 * and the webhook sender (node:http, which follows nothing) counts it as a failed delivery. A redirect's target therefore
 * never gets a request that the guard did not check; the same holds when private networks are
 * allowed, so that development answers as production does.
 */

/** The IPv6 global unicast space (RFC 4291; IANA allocates public IPv6 addresses from it only). */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');
/** NAT64's well-known prefix (RFC 6052), the IPv4 address in the last 32 bits. */
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');

/** The IPv4 address of two 16-bit groups of an IPv6 address. */
function ipv4Of(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/** The IPv4 addresses an IPv6 address of a transition range embeds, or null when it embeds none that can be told. */
function embeddedIPv4(address: ipaddr.IPv6, range: string): ipaddr.IPv4[] | null {
  const p = address.parts as [number, number, number, number, number, number, number, number];
  switch (range) {
    case 'ipv4Mapped':
      return [address.toIPv4Address()];
    case 'rfc6052':
      return address.match(NAT64_WELL_KNOWN) ? [ipv4Of(p[6], p[7])] : null;
    case '6to4':
      return [ipv4Of(p[1], p[2])];
    case 'teredo':
      return [ipv4Of(p[2], p[3]), ipv4Of(p[6] ^ 0xffff, p[7] ^ 0xffff)];
    default:
      return null;
  }
}

/**
 * An address as ipaddr.js should read it. IPv6 is written out by the URL parser first: ipaddr.js
 * reads the deprecated IPv4-compatible form ::a.b.c.d (which dns.lookup prints for such an address)
 * as the IPv4-mapped ::ffff:a.b.c.d, which it is not. A zone (fe80::1%eth0) does not change the
 * judgement and is dropped. Null: not an IP address.
 */
function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const family = isIP(address);
  try {
    if (family === 4) return ipaddr.IPv4.parse(address);
    if (family !== 6) return null;
    const canonical = URL.parse(`http://[${address.replace(/%.*$/, '')}]/`)?.hostname.slice(1, -1);
    return canonical ? ipaddr.IPv6.parse(canonical) : null;
  } catch {
    return null;
  }
}

/** Whether an IP address is outside the public internet (loopback, private, link-local, an IPv6 address embedding one, …; anything that is no IP address). */
export function isNonPublicAddress(address: string): boolean {
  const parsed = parseAddress(address);
  if (!parsed) return true;
  if (parsed instanceof ipaddr.IPv4) return parsed.range() !== 'unicast';
  const range: string = parsed.range();
  if (range === 'unicast') return !parsed.match(GLOBAL_UNICAST);
  const embedded = embeddedIPv4(parsed, range);
  return embedded === null || embedded.some((ipv4) => ipv4.range() !== 'unicast');
}

/** What the configuration allows: private networks are open outside production, or with OUTBOUND_ALLOW_PRIVATE_NETWORKS=true. */
export interface OutboundPolicy {
  allowPrivateNetworks: boolean;
}

export function outboundPolicy(config: { isProduction: boolean; OUTBOUND_ALLOW_PRIVATE_NETWORKS: boolean }): OutboundPolicy {
  return { allowPrivateNetworks: !config.isProduction || config.OUTBOUND_ALLOW_PRIVATE_NETWORKS };
}

/** An outgoing call refused because its host is, or resolves to, a non-public address. */
export class OutboundAddressRefused extends Error {
  readonly code = 'EOUTBOUNDREFUSED';

  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`${host} is not a public address (${address}): refused for outgoing calls`);
    this.name = 'OutboundAddressRefused';
  }
}

/** A URL's host without the brackets of an IPv6 literal. */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * Throws OutboundAddressRefused when the URL's host is an IP address the policy refuses. A name is
 * not looked at here: guardedLookup checks its addresses when the call connects.
 */
export function checkAddressLiteral(url: URL, policy: OutboundPolicy): void {
  if (policy.allowPrivateNetworks) return;
  const host = hostOf(url);
  if (isIP(host) && isNonPublicAddress(host)) throw new OutboundAddressRefused(host, host);
}

/**
 * Check that a URL may be called under the policy: its host, or every address its name resolves
 * to, must be public. Throws OutboundAddressRefused; a name that does not resolve is let through
 * (the call itself will fail, and guardedLookup checks again at that time).
 */
export async function checkOutboundUrl(url: URL, policy: OutboundPolicy): Promise<void> {
  if (policy.allowPrivateNetworks) return;
  const host = hostOf(url);
  if (isIP(host)) return checkAddressLiteral(url, policy);
  let addresses: LookupAddress[];
  try {
    addresses = await new Promise<LookupAddress[]>((resolve, reject) =>
      dnsLookup(host, { all: true, verbatim: true }, (err, found) => (err ? reject(err) : resolve(found))),
    );
  } catch {
    return;
  }
  const refused = addresses.find((a) => isNonPublicAddress(a.address));
  if (refused) throw new OutboundAddressRefused(host, refused.address);
}

/**
 * A `lookup` for node:http(s) requests and agents that resolves as dns.lookup does and refuses
 * (OutboundAddressRefused) a name with any non-public address under the policy. An IP literal in
 * the URL is not looked up by Node: check it with checkOutboundUrl before the call.
 */
export function guardedLookup(policy: OutboundPolicy): LookupFunction {
  if (policy.allowPrivateNetworks) return dnsLookup;
  return (
    hostname: string,
    options: LookupOptions,
    callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    dnsLookup(hostname, { ...options, all: true } as LookupAllOptions, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const refused = addresses.find((a) => isNonPublicAddress(a.address));
      if (refused) return callback(new OutboundAddressRefused(hostname, refused.address), '', 0);
      if ((options as { all?: boolean }).all !== true) {
        const first = addresses[0];
        if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
        return callback(null, first.address, first.family);
      }
      return callback(null, addresses);
    });
  };
}

/** The fetch the guard hands out: the Fetch API's signature, as openid-client's customFetch and oidc-provider's fetch call it. */
export type OutboundFetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** The agents of guarded fetches, by policy, with guardedLookup at connection time (null: this Node has none). */
let guardedAgent: object | null | undefined;

/**
 * The agent of guarded fetches. Node's fetch (undici inside Node) takes a `dispatcher`; its Agent
 * class is reached through the global dispatcher, as oidc-provider's own SSRF protection does
 * (node_modules/oidc-provider/lib/helpers/fetch_request.js). Null when this Node has none: the check
 * before the call (checkOutboundUrl) then stands alone.
 */
function fetchAgent(): object | null {
  if (guardedAgent !== undefined) return guardedAgent;
  void globalThis.Response; // loads Node's fetch, which sets its global dispatcher
  const holder = globalThis as unknown as Record<symbol, { constructor: new (options: object) => object } | undefined>;
  const Agent = (holder[Symbol.for('undici.globalDispatcher.2')] ?? holder[Symbol.for('undici.globalDispatcher.1')])?.constructor;
  guardedAgent = Agent ? new Agent({ connect: { lookup: guardedLookup({ allowPrivateNetworks: false }) } }) : null;
  return guardedAgent;
}

/**
 * A fetch under the policy: the URL is checked first and the connection again (plain fetch when
 * private networks are allowed). It never follows a redirect (the module's header): a 3xx is its answer.
 */
export function outboundFetch(policy: OutboundPolicy): OutboundFetch {
  const noFollowing = (init: RequestInit | undefined): RequestInit => ({
    ...init,
    redirect: init?.redirect === 'error' ? 'error' : 'manual',
  });
  if (policy.allowPrivateNetworks) return (url, init) => fetch(url, noFollowing(init));
  return async (url, init) => {
    const target = new URL(url instanceof URL ? url.href : url);
    if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new OutboundAddressRefused(target.host, target.protocol);
    await checkOutboundUrl(target, policy);
    const dispatcher = fetchAgent();
    const options = noFollowing(init);
    return fetch(target, (dispatcher ? { ...options, dispatcher } : options) as RequestInit);
  };
}
