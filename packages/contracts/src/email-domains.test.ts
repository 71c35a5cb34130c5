import { describe, expect, it } from 'vitest';
import { emailDomain, isDomainAllowed, isEmailDomain, normalizeEmailDomain } from './email-domains.js';
import { allowedEmailDomainsRequestSchema } from './schemas.js';

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

  it('is the rule of the allowed-domains request', () => {
    expect(allowedEmailDomainsRequestSchema.parse({ allowed_email_domains: [' @Farm.Example'] })).toEqual({
      allowed_email_domains: ['farm.example'],
    });
    expect(allowedEmailDomainsRequestSchema.safeParse({ allowed_email_domains: ['bad domain!'] }).success).toBe(false);
  });
});
