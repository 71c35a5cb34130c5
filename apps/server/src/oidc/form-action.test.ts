import { describe, expect, it } from 'vitest';
import { formTarget, withFormAction } from './form-action.js';

describe('formTarget', () => {
  it('names the origin of an http(s) address, loopback ones included', () => {
    expect(formTarget('http://localhost:3001/')).toBe('http://localhost:3001');
    expect(formTarget('http://127.0.0.1:8080/callback?x=1')).toBe('http://127.0.0.1:8080');
    expect(formTarget('https://App.Example.com/cb')).toBe('https://app.example.com');
    expect(formTarget('https://app.example.com:443/cb')).toBe('https://app.example.com');
  });

  it('gives the scheme alone for an IPv6 literal, which no CSP source can name', () => {
    expect(formTarget('http://[::1]:4712/')).toBe('http:');
    expect(formTarget('https://[2001:db8::1]/cb')).toBe('https:');
  });

  it('refuses what would end a source or a directive, and other schemes', () => {
    expect(formTarget('http://a;script-src/')).toBeNull();
    expect(formTarget('http://a,b/')).toBeNull();
    expect(formTarget('http://under_score.example/')).toBeNull();
    expect(formTarget('javascript:alert(1)')).toBeNull();
    expect(formTarget('com.example.app:/callback')).toBeNull();
    expect(formTarget('not a url')).toBeNull();
  });
});

describe('withFormAction', () => {
  const policy = "default-src 'self';form-action 'self' https:;frame-ancestors 'none'";

  it("replaces form-action with 'self' and the targets' sources, keeping the other directives", () => {
    expect(withFormAction(policy, ['http://localhost:3001/', 'http://localhost:3001/other'])).toBe(
      "default-src 'self';form-action 'self' http://localhost:3001;frame-ancestors 'none'",
    );
    expect(withFormAction(policy, [])).toBe("default-src 'self';form-action 'self';frame-ancestors 'none'");
    expect(withFormAction(policy, ['http://a;script-src/'])).toBe("default-src 'self';form-action 'self';frame-ancestors 'none'");
  });

  it('adds form-action to a policy without one', () => {
    expect(withFormAction("default-src 'self'", ['https://app.example.com/cb'])).toBe(
      "default-src 'self';form-action 'self' https://app.example.com",
    );
  });
});
