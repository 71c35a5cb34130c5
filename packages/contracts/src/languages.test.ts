import { describe, expect, it } from 'vitest';
import {
  interfaceLanguageFor,
  interfaceLanguageOf,
  interfaceLanguageOfAcceptLanguage,
  USER_LANGUAGES,
  userLanguageFor,
  userLanguageOf,
} from './languages.js';

describe('languages', () => {
  it('has six user languages, pt-BR the sixth, each shown by an interface language of its own', () => {
    expect(USER_LANGUAGES).toEqual(['en', 'nl', 'de', 'fr', 'es', 'pt-BR']);
    expect(USER_LANGUAGES.map(interfaceLanguageFor)).toEqual(['en-GB', 'nl', 'de', 'fr', 'es', 'pt-BR']);
  });

  it('reads a language tag as its user language', () => {
    expect(userLanguageOf('nl-NL')).toBe('nl');
    expect(userLanguageOf('DE_at')).toBe('de');
    expect(userLanguageOf('en-GB')).toBe('en');
    expect(userLanguageOf('pt-BR')).toBe('pt-BR');
    expect(userLanguageOf('pt-br')).toBe('pt-BR');
    expect(userLanguageOf('pt')).toBe('pt-BR');
    expect(userLanguageOf('it')).toBeNull();
    expect(userLanguageOf('')).toBeNull();
    expect(userLanguageFor('it')).toBe('en');
    expect(userLanguageFor('pt-BR')).toBe('pt-BR');
  });

  it('maps a browser language to an interface language', () => {
    expect(interfaceLanguageOf('nl-NL')).toBe('nl');
    expect(interfaceLanguageOf('en-US')).toBe('en-GB');
    expect(interfaceLanguageOf('pt-PT')).toBe('pt-BR');
    expect(interfaceLanguageOf('ja')).toBeNull();
  });

  it('picks the interface language of an Accept-Language header by weight, then order', () => {
    expect(interfaceLanguageOfAcceptLanguage('nl-NL,nl;q=0.9,en-US;q=0.8,en;q=0.7')).toBe('nl');
    expect(interfaceLanguageOfAcceptLanguage('ja, it;q=0.9, pt-PT;q=0.5')).toBe('pt-BR');
    expect(interfaceLanguageOfAcceptLanguage('en;q=0.2, de;q=0.8')).toBe('de');
    expect(interfaceLanguageOfAcceptLanguage('fr, es')).toBe('fr');
    expect(interfaceLanguageOfAcceptLanguage('de;q=0, es;q=0.1')).toBe('es');
    expect(interfaceLanguageOfAcceptLanguage('ja, *;q=0.1')).toBeNull();
    expect(interfaceLanguageOfAcceptLanguage('')).toBeNull();
    expect(interfaceLanguageOfAcceptLanguage(undefined)).toBeNull();
    expect(interfaceLanguageOfAcceptLanguage(';;,q=,nl;q=abc')).toBeNull();
  });
});
