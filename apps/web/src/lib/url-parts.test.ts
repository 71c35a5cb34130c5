import { describe, expect, it } from 'vitest';
import { isWebAddress, urlParts } from './url-parts';

describe('urlParts', () => {
  it('cuts a URL after its separators, a run of them kept together', () => {
    expect(urlParts('https://portal.example.com:8443/connect/token')).toEqual([
      'https://',
      'portal.',
      'example.',
      'com:',
      '8443/',
      'connect/',
      'token',
    ]);
    expect(urlParts('http://127.0.0.1:3000/scim/v2?x=1&y=2#top')).toEqual([
      'http://',
      '127.',
      '0.',
      '0.',
      '1:',
      '3000/',
      'scim/',
      'v2?',
      'x=',
      '1&',
      'y=',
      '2#',
      'top',
    ]);
  });

  it('gives the URL back whole when joined, whatever it holds', () => {
    for (const url of ['https://a.example/', 'https://a.example/path/', 'plain', '', '///', 'https://x.example/a-b_c/d?e=f&&g'])
      expect(urlParts(url).join('')).toBe(url);
    expect(urlParts('')).toEqual([]);
    expect(urlParts('token')).toEqual(['token']);
  });

  it('knows a web address from a secret or a name', () => {
    expect(isWebAddress('https://portal.example/connect/token')).toBe(true);
    expect(isWebAddress('http://127.0.0.1:3000/scim/v2')).toBe(true);
    expect(isWebAddress('whsec_abc')).toBe(false);
    expect(isWebAddress('partner_portal_api')).toBe(false);
  });
});
