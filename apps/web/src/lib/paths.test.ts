import { describe, expect, it } from 'vitest';
import { loginPathFor, safeReturnPath } from './paths';

describe('return paths', () => {
  it('keeps local paths and refuses other sites', () => {
    expect(safeReturnPath('/profile?x=1')).toBe('/profile?x=1');
    expect(safeReturnPath('//evil.example')).toBeNull();
    expect(safeReturnPath('/\\evil.example')).toBeNull();
    expect(safeReturnPath('https://evil.example')).toBeNull();
    expect(safeReturnPath('/logout')).toBeNull();
    expect(safeReturnPath('/.//evil.example')).toBeNull();
    expect(safeReturnPath('/a/..//evil.example')).toBeNull();
    expect(safeReturnPath('/%2F%2Fevil.example')).toBeNull();
    expect(safeReturnPath('/./logout')).toBeNull();
    expect(safeReturnPath(null)).toBeNull();
  });
  it('builds the login address with the current location', () => {
    expect(loginPathFor({ pathname: '/manage-organization/1', search: '?q=a' })).toBe(
      '/login?returnPath=%2Fmanage-organization%2F1%3Fq%3Da',
    );
  });
});
