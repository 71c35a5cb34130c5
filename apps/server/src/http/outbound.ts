import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * The guard of the portal's outgoing HTTP calls (the operating contract: "Outgoing calls … to
 * loopback and private addresses are refused when NODE_ENV=production, unless
 * OUTBOUND_ALLOW_PRIVATE_NETWORKS=true"): OpenID Connect discovery and sign-in at a dealer's
 * identity provider (oidc/upstream.ts, as openid-client's `customFetch`), the provider's
 * back-channel logout (oidc/provider.ts, its `fetch`), and any later caller (webhooks).
 *
 * A guarded fetch refuses a URL whose host is, or resolves to, an address of the loopback,
 * private (RFC 1918, shared CGNAT), link-local or unique-local ranges. The host is resolved first
 * (a clear refusal before any connection), and the connection itself goes through an agent whose
 * lookup checks again the addresses it connects to, so that a name which resolves differently the
 * second time (DNS rebinding) does not get through either.
 */

/** The ranges an outgoing call must not reach when private networks are not allowed. */
const PRIVATE_RANGES = new BlockList();
PRIVATE_RANGES.addSubnet('0.0.0.0', 8, 'ipv4'); // "this network"
PRIVATE_RANGES.addSubnet('10.0.0.0', 8, 'ipv4');
PRIVATE_RANGES.addSubnet('100.64.0.0', 10, 'ipv4'); // shared address space (carrier-grade NAT)
PRIVATE_RANGES.addSubnet('127.0.0.0', 8, 'ipv4');
PRIVATE_RANGES.addSubnet('169.254.0.0', 16, 'ipv4'); // link-local (cloud metadata services)
PRIVATE_RANGES.addSubnet('172.16.0.0', 12, 'ipv4');
PRIVATE_RANGES.addSubnet('192.168.0.0', 16, 'ipv4');
PRIVATE_RANGES.addAddress('::', 'ipv6');
PRIVATE_RANGES.addAddress('::1', 'ipv6');
PRIVATE_RANGES.addSubnet('fc00::', 7, 'ipv6'); // unique-local
PRIVATE_RANGES.addSubnet('fe80::', 10, 'ipv6'); // link-local

/** Whether an IP address lies in a loopback, private, link-local or unique-local range (IPv4-mapped IPv6 as its IPv4). */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true; // not an address: never connect to it unchecked
  return PRIVATE_RANGES.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** An outgoing call refused by the guard. */
export class OutboundRefused extends Error {
  constructor(readonly host: string) {
    super(`outgoing call to ${host} refused: a loopback, private or link-local address (OUTBOUND_ALLOW_PRIVATE_NETWORKS)`);
    this.name = 'OutboundRefused';
  }
}

/** The fetch the guard hands out: the Fetch API's signature, as openid-client's customFetch and oidc-provider's fetch call it. */
export type OutboundFetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

export interface OutboundOptions {
  /** let calls reach private networks (development and tests; OUTBOUND_ALLOW_PRIVATE_NETWORKS in production) */
  allowPrivate: boolean;
}

/** The guard's settings from the configuration: private networks allowed outside production, or when the operator says so. */
export function outboundOptions(config: { isProduction: boolean; OUTBOUND_ALLOW_PRIVATE_NETWORKS: boolean }): OutboundOptions {
  return { allowPrivate: !config.isProduction || config.OUTBOUND_ALLOW_PRIVATE_NETWORKS };
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** dns.lookup that fails for a name resolving to a refused address (the connection-time check). */
function guardedLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    if (addresses.length === 0 || addresses.some((a) => isPrivateAddress(a.address))) {
      return callback(Object.assign(new OutboundRefused(hostname), { code: 'EOUTBOUNDREFUSED' }), []);
    }
    if (options.all) return callback(null, addresses);
    const first = addresses[0]!;
    callback(null, first.address, first.family);
  });
}

/**
 * The agent of guarded calls, with guardedLookup at connection time. Node's fetch (undici inside
 * Node) takes a `dispatcher`; its Agent class is reached through the global dispatcher, as
 * oidc-provider's own SSRF protection does (node_modules/oidc-provider/lib/helpers/fetch_request.js).
 * Null when this Node has none: the resolution before the call then stands alone.
 */
let guardedAgent: object | null | undefined;
function agent(): object | null {
  if (guardedAgent !== undefined) return guardedAgent;
  void globalThis.Response; // loads Node's fetch, which sets its global dispatcher
  const holder = globalThis as unknown as Record<symbol, { constructor: new (options: object) => object } | undefined>;
  const Agent = (holder[Symbol.for('undici.globalDispatcher.2')] ?? holder[Symbol.for('undici.globalDispatcher.1')])?.constructor;
  guardedAgent = Agent ? new Agent({ connect: { lookup: guardedLookup } }) : null;
  return guardedAgent;
}

/** Refuse a URL whose host is, or resolves to, a refused address (the check before the call). */
export async function assertPublicHost(url: URL): Promise<void> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundRefused(url.host);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host)) {
    if (isPrivateAddress(host)) throw new OutboundRefused(host);
    return;
  }
  let addresses: LookupAddress[];
  try {
    addresses = await lookup(host, { all: true, verbatim: true });
  } catch {
    // an unknown name: fetch fails on it the same way
    return;
  }
  if (addresses.some((a) => isPrivateAddress(a.address))) throw new OutboundRefused(host);
}

/** A fetch that applies the guard (or plain fetch when private networks are allowed). */
export function outboundFetch(options: OutboundOptions): OutboundFetch {
  if (options.allowPrivate) return (url, init) => fetch(url, init);
  return async (url, init) => {
    const target = new URL(url instanceof URL ? url.href : url);
    await assertPublicHost(target);
    const dispatcher = agent();
    return fetch(target, (dispatcher ? { ...init, dispatcher } : init) as RequestInit);
  };
}
