/**
 * A wait in words of the interface language, in minutes and seconds ("14 minutes and 5 seconds",
 * "14 minuten en 5 seconden", "40 segundos"), by the browser's Intl: the units' names and the
 * language's "and" come with it, so no translation keys are needed.
 */
export function waitInWords(seconds: number, language: string): string {
  const whole = Math.max(0, Math.ceil(seconds));
  const minutes = Math.floor(whole / 60);
  const rest = whole % 60;
  const unit = (value: number, name: 'minute' | 'second') =>
    new Intl.NumberFormat(language, { style: 'unit', unit: name, unitDisplay: 'long' }).format(value);
  const parts = [...(minutes ? [unit(minutes, 'minute')] : []), ...(rest || !minutes ? [unit(rest, 'second')] : [])];
  return new Intl.ListFormat(language, { style: 'long', type: 'conjunction' }).format(parts);
}
