import { createTheme, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';
import classes from './theme.module.css';

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
    // a dialog's header is not the page's banner landmark (one banner per page)
    ModalHeader: { defaultProps: { component: 'div' } },
    Anchor: { defaultProps: { underline: 'always' } },
    Input: { classNames: { input: classes.input } },
  },
});

/**
 * Texts darker than Mantine's defaults, so they keep WCAG AA contrast (4.5:1) at small sizes: dimmed
 * text and field errors on white (red 9: 5.5:1, Mantine's red 6 is 3.3:1), and the text of light
 * green badges on their pale green (Mantine's green 9 is 3.8:1).
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    '--mantine-color-green-light-color': '#1b5e2a',
  },
  dark: {},
});
