import { createElement, type ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import {
  Alert,
  Anchor,
  Button,
  Center,
  Divider,
  Group,
  Loader,
  MantineProvider,
  NativeSelect,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { describe, expect, it } from 'vitest';
import * as plain from './plain';
import { theme } from './theme';

/** `createElement`, loosely typed: Mantine's polymorphic components' props do not fit its overloads. */
const h = createElement as (type: unknown, props?: object | null, ...children: unknown[]) => ReactElement;

/**
 * The login route's plain elements (./plain.tsx) render what Mantine's components render with the
 * portal's theme: the same elements, classes, data attributes and variables (ids aside), so
 * Mantine's stylesheet styles them alike. A Mantine update that changes its markup fails here.
 */
const mantine = (element: ReactElement) =>
  renderToString(h(MantineProvider, { theme, withCssVariables: false, withGlobalClasses: false }, element));
/** The markup with ids alike and each element's attributes in one order (their order does not matter). */
const markup = (html: string) =>
  html
    .replace(/mantine-_R_[0-9a-zA-Z_]*?_(?=["-])/g, 'mantine-ID')
    .replace(/<([a-z0-9]+)((?:\s+[^\s=/>]+(?:="[^"]*")?)*)\s*(\/?)>/g, (_, tag: string, attributes: string, end: string) => {
      const sorted = (attributes.match(/[^\s=/>]+(?:="[^"]*")?/g) ?? []).sort().join(' ');
      return `<${tag}${sorted ? ` ${sorted}` : ''}${end}>`;
    });
const same = (ours: ReactElement, theirs: ReactElement) => expect(markup(renderToString(ours))).toBe(markup(mantine(theirs)));
const icon = h('svg', { 'aria-hidden': true });
const select = (props: object) =>
  h('select', { ...props, defaultValue: 'b' }, h('option', { value: 'a' }, 'A'), h('option', { value: 'b' }, 'B'));

describe('the plain elements render as Mantine’s components', () => {
  it('layout: Stack, Group, Center, Divider', () => {
    same(h(plain.Stack, { gap: 'lg' }, 'x'), h(Stack, { gap: 'lg' }, 'x'));
    same(h(plain.Stack, { gap: 4, align: 'center' }, 'x'), h(Stack, { gap: 4, align: 'center' }, 'x'));
    same(h(plain.Group, { justify: 'flex-end' }, 'x'), h(Group, { justify: 'flex-end' }, 'x'));
    same(h(plain.Group, { gap: 10, wrap: 'nowrap' }, 'x'), h(Group, { gap: 10, wrap: 'nowrap' }, 'x'));
    same(h(plain.Center, { component: 'header' }, 'x'), h(Center, { component: 'header' }, 'x'));
    same(h(plain.Divider), h(Divider));
    same(h(plain.Divider, { style: { marginBlock: 'var(--mantine-spacing-md)' } }), h(Divider, { my: 'md' }));
  });

  it('text: Title, Text, Anchor, Loader', () => {
    same(h(plain.Title, { order: 1, size: 'h2' }, 'T'), h(Title, { order: 1, size: 'h2' }, 'T'));
    same(h(plain.Title, { order: 1 }, 'T'), h(Title, { order: 1 }, 'T'));
    same(h(plain.Text, { size: 'sm' }, 'T'), h(Text, { size: 'sm' }, 'T'));
    same(h(plain.Text, null, 'T'), h(Text, null, 'T'));
    same(h('a', { ...plain.anchorProps, href: '/x' }, 'A'), h(Anchor, { href: '/x', size: 'sm' }, 'A'));
    same(h(plain.Loader, { role: 'status', 'aria-label': 'L' }), h(Loader, { role: 'status', 'aria-label': 'L' }));
  });

  it('Alert: red with and without a title, green with a title', () => {
    same(
      h(plain.Alert, { color: 'red', icon, title: 'T', role: 'alert' }, 'B'),
      h(Alert, { color: 'red', variant: 'light', icon, title: 'T', role: 'alert' }, 'B'),
    );
    same(
      h(plain.Alert, { color: 'red', icon, role: 'alert' }, 'B'),
      h(Alert, { color: 'red', variant: 'light', icon, role: 'alert' }, 'B'),
    );
    const dark = { color: 'var(--mantine-color-dark-9)' };
    same(
      h(plain.Alert, { color: 'green', icon, title: 'T', role: 'status', titleStyle: dark }, 'B'),
      h(Alert, { color: 'green', variant: 'light', icon, title: 'T', role: 'status', styles: { title: dark } }, 'B'),
    );
  });

  it('Button: full width, loading, and plain', () => {
    same(h(plain.Button, { type: 'submit', fullWidth: true }, 'N'), h(Button, { type: 'submit', fullWidth: true }, 'N'));
    same(
      h(plain.Button, { type: 'submit', fullWidth: true, loading: true }, 'N'),
      h(Button, { type: 'submit', fullWidth: true, loading: true }, 'N'),
    );
    same(h(plain.Button, null, 'N'), h(Button, null, 'N'));
  });

  it('TextInput, required, with and without an error', () => {
    for (const error of [undefined, 'E']) {
      same(
        h(plain.InputField, {
          kind: 'TextInput',
          label: 'L',
          required: true,
          error,
          field: (p: object) => h('input', { ...p, type: 'email', name: 'email' }),
        }),
        h(TextInput, { label: 'L', required: true, error, type: 'email', name: 'email' }),
      );
    }
  });

  it('NativeSelect at size xs with its sections', () => {
    same(
      h(plain.InputField, {
        kind: 'NativeSelect',
        label: 'L',
        size: 'xs',
        style: { width: plain.rem(200) },
        leftSection: icon,
        rightSection: h(plain.NativeSelectChevron),
        field: select,
      }),
      h(NativeSelect, {
        label: 'L',
        size: 'xs',
        w: 200,
        leftSection: icon,
        data: [
          { value: 'a', label: 'A' },
          { value: 'b', label: 'B' },
        ],
        defaultValue: 'b',
      }),
    );
  });
});
