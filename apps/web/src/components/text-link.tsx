import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { anchorProps } from './plain';

/**
 * A small text link to another page of the portal (back to the login, forgot your password…):
 * Mantine's `Anchor` as a router link, without Mantine's code (it is on the login route, components/plain.tsx).
 */
export function TextLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} {...anchorProps}>
      {children}
    </Link>
  );
}
