/**
 * The languages × widths a test walks. By default each language and each width at least once,
 * paired along a diagonal (nl at 390, pt-BR at 768, nl at 1280, …): the layout depends on the
 * width and the texts on the language, and a pairing of both catches what either alone would.
 * `E2E_FULL_GRID=1` walks every pair (README.md, "Tests"); `npm test` on two cores stays within
 * its time that way.
 */
export const FULL_GRID = process.env.E2E_FULL_GRID === '1' || process.env.E2E_FULL_GRID === 'true';

export function grid<L, W>(languages: readonly L[], widths: readonly W[]): [L, W][] {
  if (FULL_GRID) return languages.flatMap((language) => widths.map((width): [L, W] => [language, width]));
  const n = Math.max(languages.length, widths.length);
  return Array.from({ length: n }, (_, i): [L, W] => [languages[i % languages.length]!, widths[i % widths.length]!]);
}

/** The widths `grid` pairs with one of its languages (for a test that loops over languages first). */
export function widthsFor<L, W>(language: L, languages: readonly L[], widths: readonly W[]): W[] {
  return grid(languages, widths)
    .filter(([l]) => l === language)
    .map(([, width]) => width);
}

/**
 * The languages of a test whose steps do not depend on the language (focus, keyboard): by default
 * its last (the file's others cover the first), every one with `E2E_FULL_GRID=1`.
 */
export function someOf<T>(languages: readonly T[]): T[] {
  return FULL_GRID ? [...languages] : languages.slice(-1);
}
