import type { ReactNode } from 'react';
import { Anchor } from '@mantine/core';
import { Link } from 'react-router';

/** A small text link to another page of the portal (back to the login, forgot your password…). */
export function TextLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Anchor component={Link} to={to} size="sm">
      {children}
    </Anchor>
  );
}
