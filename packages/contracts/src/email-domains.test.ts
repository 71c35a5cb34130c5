import { describe, expect, it } from 'vitest';
import { emailDomain, isDomainAllowed, isEmailDomain, normalizeEmailDomain, readEmailDomain } from './email-domains.js';

describe('e-mail domains', () => {
  it('normalises as they are kept: trimmed, lower case, no leading @', () => {
    expect(normalizeEmailDomain(' @Farm.Example ')).toBe('farm.example');
    expect(emailDomain('Piet@Farm.Example ')).toBe('farm.example');
    expect(emailDomain('no-at-sign')).toBe('');
  });

  it('accepts host names and refuses what is not one', () => {
    expect(isEmailDomain('@farmtech.de')).toBe(true);
    expect(isEmailDomain('bad domain!')).toBe(false);
    expect(isEmailDomain('localhost')).toBe(false);
    expect(isEmailDomain('-a.example')).toBe(false);
  });

  it('allows any address without allowed domains, else only those domains', () => {
    expect(isDomainAllowed('a@x.com', [])).toBe(true);
    expect(isDomainAllowed('a@X.com', ['x.com'])).toBe(true);
    expect(isDomainAllowed('a@x.com', [' @X.com'])).toBe(true);
    expect(isDomainAllowed('a@y.com', ['@x.com'])).toBe(false);
  });

  it('reads a typed domain once, for the field and the server: kept form and verdict', () => {
    expect(readEmailDomain(' @Farm.Example ')).toEqual({ domain: 'farm.example', valid: true });
    // a space inside is part of the domain, which is then refused by name
    expect(readEmailDomain('bad domain!')).toEqual({ domain: 'bad domain!', valid: false });
    expect(readEmailDomain('farm .example')).toEqual({ domain: 'farm .example', valid: false });
  });
});
