import { describe, expect, it } from 'vitest';
import { waitInWords as inWords } from './wait-time';

// French puts a no-break space between some numbers and units: compared as a space
const waitInWords = (seconds: number, language: string) => inWords(seconds, language).replace(/\s/g, ' ');

describe('waitInWords', () => {
  it('says minutes and seconds in the interface language', () => {
    expect(waitInWords(845, 'en-GB')).toBe('14 minutes and 5 seconds');
    expect(waitInWords(845, 'nl')).toBe('14 minuten en 5 seconden');
    expect(waitInWords(845, 'pt-BR')).toBe('14 minutos e 5 segundos');
    expect(waitInWords(845, 'de')).toBe('14 Minuten und 5 Sekunden');
    expect(waitInWords(845, 'fr')).toBe('14 minutes et 5 secondes');
    expect(waitInWords(845, 'es')).toBe('14 minutos y 5 segundos');
  });

  it('leaves out a unit that is zero, and says one in the singular', () => {
    expect(waitInWords(900, 'nl')).toBe('15 minuten');
    expect(waitInWords(61, 'en-GB')).toBe('1 minute and 1 second');
    expect(waitInWords(40, 'pt-BR')).toBe('40 segundos');
    expect(waitInWords(1, 'pt-BR')).toBe('1 segundo');
  });

  it('rounds up to a whole second and never goes below zero', () => {
    expect(waitInWords(4.2, 'en-GB')).toBe('5 seconds');
    expect(waitInWords(-3, 'en-GB')).toBe('0 seconds');
  });
});
