/**
 * Dates as docs/product.md, "Limits and constants" gives them: day/month/year, two digits each, as the Dutch (nl-NL) locale
 * orders them, e.g. 21/11/26. Invalid or missing input gives an empty string.
 */
const formatter = new Intl.DateTimeFormat('nl-NL', { day: '2-digit', month: '2-digit', year: '2-digit' });

export function formatDate(value: string | number | Date | null | undefined, timeZone?: string): string {
  if (value === null || value === undefined || value === '') return '';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const f = timeZone ? new Intl.DateTimeFormat('nl-NL', { day: '2-digit', month: '2-digit', year: '2-digit', timeZone }) : formatter;
  const parts = Object.fromEntries(f.formatToParts(date).map((p) => [p.type, p.value]));
  return `${parts.day}/${parts.month}/${parts.year}`;
}
