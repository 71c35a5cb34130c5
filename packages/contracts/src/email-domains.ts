/**
 * E-mail domains, one rule for the server and the web app (docs/product.md, "Validation"): an
 * organization's allowed domains are kept trimmed, in lower case and without a leading `@`; an
 * address may be invited when its domain is one of them, or when there are none.
 */

/** A host name of at least two labels ending in a letters-only top-level label, at most 253 characters. */
export const EMAIL_DOMAIN_PATTERN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** A domain as the portal keeps it: trimmed, lower case, without a leading `@`. */
export function normalizeEmailDomain(value: string): string {
  return value.trim().toLowerCase().replace(/^@/, '');
}

/**
 * A typed domain as the portal keeps it (normalizeEmailDomain) and whether the portal accepts it:
 * the one rule of the allowed-domains field and of the server that stores them.
 */
export function readEmailDomain(value: string): { domain: string; valid: boolean } {
  const domain = normalizeEmailDomain(value);
  return { domain, valid: EMAIL_DOMAIN_PATTERN.test(domain) };
}

/** Whether a value (with or without `@`, any case) is an e-mail domain the portal accepts. */
export function isEmailDomain(value: string): boolean {
  return readEmailDomain(value).valid;
}

/** The domain of an address, normalised, or '' when it has no `@`. */
export function emailDomain(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 0 ? '' : normalizeEmailDomain(email.slice(at + 1));
}

/** Whether an address may be invited into an organization with these allowed domains (none: any). */
export function isDomainAllowed(email: string, allowed: readonly string[]): boolean {
  if (allowed.length === 0) return true;
  const domain = emailDomain(email);
  return allowed.some((d) => normalizeEmailDomain(d) === domain);
}
