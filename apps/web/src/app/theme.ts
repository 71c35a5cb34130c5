import { createTheme, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';

/** The provider's blue, from light to dark; shade 8 keeps white text above WCAG AA contrast. */
const brand: MantineColorsTuple = [
  '#e7f1fb',
  '#cfe1f5',
  '#a0c2ea',
  '#6da1df',
  '#4385d5',
  '#2a74cf',
  '#1a69cc',
  '#0b5cad',
  '#004f9b',
  '#003f7d',
];

export const theme = createTheme({
  primaryColor: 'brand',
  colors: { brand },
  primaryShade: 8,
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '700' },
  breakpoints: { xs: '36em', sm: '48em', md: '62em', lg: '75em', xl: '88em' },
  components: {
    // docs/product.md, "Limits and constants": the modal layer 1100 over its overlay 1000
    Modal: { defaultProps: { zIndex: 1100, overlayProps: { zIndex: 1000 } } },
    Anchor: { defaultProps: { underline: 'always' } },
  },
});

/** Dimmed text one step darker than Mantine's default, so it keeps WCAG AA contrast on white. */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' },
  dark: {},
});
