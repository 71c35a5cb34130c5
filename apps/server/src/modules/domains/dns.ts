import { NODATA, NOTFOUND, promises as dns } from 'node:dns';
import type { Config } from '../../config.js';

/**
 * The DNS questions of verified domains (docs/dealer-identity.md, "Verified domains"): the TXT
 * records at a name, asked of the resolvers in DNS_SERVERS when it is set, else of the system's,
 * through Node's resolver (c-ares). Each question waits DNS_TIMEOUT_MS and is asked twice.
 */

/** What DNS said about the TXT records at a name. */
export type TxtAnswer =
  /** the records, each one's character-strings joined (a long value is published in chunks of 255) */
  | { kind: 'records'; values: string[] }
  /** the name does not exist (NXDOMAIN) or has no TXT record: DNS answered, and there is none */
  | { kind: 'none' }
  /** no answer to go by (a timeout, SERVFAIL, a refusal, no resolver reachable): ask again later */
  | { kind: 'unanswered'; code: string };

/** Asks DNS for TXT records. */
export interface TxtLookup {
  txt(name: string): Promise<TxtAnswer>;
}

/** How many times a question is sent before the lookup gives up (each waits DNS_TIMEOUT_MS). */
const TRIES = 2;

/** The answers that say there is nothing (rather than that nobody said anything). */
const NOTHING_THERE = new Set<string>([NOTFOUND, NODATA]);

/** A TXT lookup on the configured resolvers; one resolver for the app, built once. */
export function createTxtLookup(config: Pick<Config, 'DNS_SERVERS' | 'DNS_TIMEOUT_MS'>): TxtLookup {
  const resolver = new dns.Resolver({ timeout: config.DNS_TIMEOUT_MS, tries: TRIES });
  if (config.DNS_SERVERS?.length) resolver.setServers(config.DNS_SERVERS);
  return {
    async txt(name) {
      try {
        const records = await resolver.resolveTxt(name);
        return { kind: 'records', values: records.map((chunks) => chunks.join('')) };
      } catch (err) {
        const code = (err as { code?: unknown }).code;
        if (typeof code === 'string' && NOTHING_THERE.has(code)) return { kind: 'none' };
        return { kind: 'unanswered', code: typeof code === 'string' ? code : 'EUNKNOWN' };
      }
    },
  };
}
