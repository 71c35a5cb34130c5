/** Invitation dates as dd/mm/yy, two digits each, in the nl-NL calendar (docs/product.md, "Limits and constants"). */
const dateFormat = new Intl.DateTimeFormat('nl-NL', { day: '2-digit', month: '2-digit', year: '2-digit' });

export function formatInvitationDate(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const parts = dateFormat.formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('day')}/${part('month')}/${part('year')}`;
}

/** The e-mail domain of an address, lower case, or '' when there is none. */
export function emailDomain(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 0
    ? ''
    : email
        .slice(at + 1)
        .trim()
        .toLowerCase();
}

/** Whether an address may be invited given the organization's allowed domains (docs/product.md, "Validation"). */
export function isDomainAllowed(email: string, allowed: readonly string[]): boolean {
  if (allowed.length === 0) return true;
  const domain = emailDomain(email);
  return allowed.some((d) => d.replace(/^@/, '').toLowerCase() === domain);
}
