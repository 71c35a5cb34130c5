import { readFileSync, writeFileSync } from 'node:fs';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { MantineProvider } from '@mantine/core';
import { expect, it } from 'vitest';
import { cssVariablesResolver, theme } from './theme';

const file = new URL('./theme-variables.css', import.meta.url);
const HEADER = `/*
 * The portal theme's CSS variables, as Mantine's provider writes them (./theme.ts): the login route
 * renders without the provider (docs/decisions/022-login-and-manage-bundles.md, third round), so its
 * stylesheet (app/login-styles.ts) carries them. Their selectors count :root twice: Mantine's whole
 * stylesheet, which a later view may bring after this one, sets Mantine's defaults on :root, and
 * must not override the theme. Written by ./theme-variables.test.ts (UPDATE_THEME_VARIABLES=1),
 * which fails when the theme and this file differ.
 */
`;

it('theme-variables.css holds the CSS variables that the Mantine provider writes for the theme', () => {
  const html = renderToString(createElement(MantineProvider, { theme, defaultColorScheme: 'light', cssVariablesResolver }));
  const css = /<style data-mantine-styles="true">([\s\S]*?)<\/style>/.exec(html)?.[1];
  expect(css).toContain('--mantine-color-brand-8');
  const expected = `${HEADER}${css?.replaceAll(':root', ':root:root')}\n`;
  if (process.env.UPDATE_THEME_VARIABLES) writeFileSync(file, expected);
  expect(readFileSync(file, 'utf8')).toBe(expected);
});
