import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOptions } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Outgoing calls of the portal (webhooks: modules/webhooks/sender.ts; OpenID Connect discovery and
 * sign-in at a dealer's identity provider: oidc/upstream.ts as openid-client's `customFetch`; the
 * provider's back-channel logout: oidc/provider.ts, its `fetch`) and the
 * networks they may reach: with NODE_ENV=production, loopback, private, link-local and other
 * non-public addresses are refused unless OUTBOUND_ALLOW_PRIVATE_NETWORKS=true, so that nobody
 * makes the portal call into the network it runs in (server-side request forgery). A host name is
 * resolved and every address it has is checked; at send time the connection is made only to an
 * address checked by the same lookup (guardedLookup), so that a name cannot resolve to a public
 * address when checked and to a private one when called.
 */

/** Addresses that are not on the public internet (RFC 6890 and its updates), IPv4 and IPv6; IPv4-mapped IPv6 addresses match their IPv4 rule. */
const NON_PUBLIC = new BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  NON_PUBLIC.addSubnet(address, prefix, 'ipv4');
}
for (const [address, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  NON_PUBLIC.addSubnet(address, prefix, 'ipv6');
}

/** Whether an IP address is outside the public internet (loopback, private, link-local, …). */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return NON_PUBLIC.check(address, family === 6 ? 'ipv6' : 'ipv4');
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

/** A fetch under the policy: plain fetch when private networks are allowed; else the URL is checked first and the connection again. */
export function outboundFetch(policy: OutboundPolicy): OutboundFetch {
  if (policy.allowPrivateNetworks) return (url, init) => fetch(url, init);
  return async (url, init) => {
    const target = new URL(url instanceof URL ? url.href : url);
    if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new OutboundAddressRefused(target.host, target.protocol);
    await checkOutboundUrl(target, policy);
    const dispatcher = fetchAgent();
    return fetch(target, (dispatcher ? { ...init, dispatcher } : init) as RequestInit);
  };
}
