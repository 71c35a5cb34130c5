import { describe, expect, it } from 'vitest';
import { safeReturnPath } from './return-path.js';

describe('return paths', () => {
  it('keeps same-origin paths, normalised', () => {
    expect(safeReturnPath('/')).toBe('/');
    expect(safeReturnPath('/manage-organization/x?tab=members#top')).toBe('/manage-organization/x?tab=members#top');
    expect(safeReturnPath('/a/./b/../c')).toBe('/a/c');
    expect(safeReturnPath('/x?next=//elsewhere')).toBe('/x?next=//elsewhere');
  });

  it('refuses anything that is or becomes protocol-relative or absolute', () => {
    for (const bad of [
      '/.//evil.example',
      '/a/../..//evil.example',
      '//evil.example',
      '/\\evil.example',
      '/%2F%2Fevil.example',
      '/%2f/evil.example',
      'https://evil.example/',
      'evil.example',
      '/\t/evil.example',
      '/\u0000x',
      '',
      null,
      undefined,
    ]) {
      expect(safeReturnPath(bad), String(bad)).toBeNull();
    }
  });
});
