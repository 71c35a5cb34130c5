import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Dates in one format per interface language, as Intl writes them for that language: day, month and year as numbers
 * (e.g. 21/11/2026 in en-GB and pt-BR, 21-11-2026 in nl, 21.11.2026 in de), optionally followed by the time of day (24 h).
 * Every date the web app shows goes through here. Invalid or missing input gives an empty string.
 */
export type DateValue = string | number | Date | null | undefined;

export interface DateFormatOptions {
  /** Add the time of day (hours and minutes, 24 h). */
  time?: boolean;
  /** IANA time zone; the browser's when absent. */
  timeZone?: string;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(language: string, { time = false, timeZone }: DateFormatOptions): Intl.DateTimeFormat {
  const key = `${language}|${time ? 't' : ''}|${timeZone ?? ''}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(language, {
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      ...(time ? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } : {}),
      timeZone,
    });
    formatters.set(key, f);
  }
  return f;
}

export function formatDate(value: DateValue, language: string, options: DateFormatOptions = {}): string {
  if (value === null || value === undefined || value === '') return '';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return formatter(language, options).format(date);
}

/** formatDate in the interface language of the component that calls it. */
export function useFormatDate(): (value: DateValue, options?: DateFormatOptions) => string {
  const { i18n } = useTranslation();
  const language = i18n.language;
  return useCallback((value: DateValue, options?: DateFormatOptions) => formatDate(value, language, options), [language]);
}
