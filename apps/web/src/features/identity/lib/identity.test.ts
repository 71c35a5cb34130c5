import { describe, expect, it } from 'vitest';
import type { OrganizationDomain, OrganizationNode, SsoConnection } from '@partner-portal/contracts';
import { findNode, originOf, readSsoTest, sortConnections, sortDomains, subtreeOptions, verifiedDomains } from './identity';

const node = (key: string, label: string, children: OrganizationNode[] = [], parent_id: string | null = 'p'): OrganizationNode => ({
  key,
  label,
  parent_id,
  path: key,
  can_create_sub_organization: true,
  sub_organization_can_have_children: true,
  pending_invitations: 0,
  members: 0,
  apps: [`app-${key}`],
  allowed_email_domains: [],
  children,
});

const tree = node(
  'root',
  'Provider',
  [node('a', 'Dealer A', [node('a1', 'Branch 1', [node('a1x', 'Shed')]), node('a2', 'Branch 2')]), node('b', 'Dealer B')],
  null,
);

describe('the organizations of the section', () => {
  it('finds a node anywhere in the tree', () => {
    expect(findNode(tree, 'a1x')?.label).toBe('Shed');
    expect(findNode(tree, 'nope')).toBeNull();
    expect(findNode(undefined, 'a')).toBeNull();
  });

  it('offers the subtree of the selected organization, named by their path below it, in tree order', () => {
    expect(subtreeOptions(tree, 'a').map((o) => o.label)).toEqual([
      'Dealer A',
      'Dealer A › Branch 1',
      'Dealer A › Branch 1 › Shed',
      'Dealer A › Branch 2',
    ]);
    expect(subtreeOptions(tree, 'a1x')).toEqual([{ value: 'a1x', label: 'Shed', apps: ['app-a1x'], isRoot: false }]);
    expect(subtreeOptions(tree, 'root')[0]!.isRoot).toBe(true);
    expect(subtreeOptions(tree, 'elsewhere')).toEqual([]);
  });
});

const domain = (name: string, organization_id: string, verified: boolean): OrganizationDomain => ({
  domain: name,
  organization_id,
  verified,
});
const connection = (name: string, organization_id: string, configured?: boolean): SsoConnection => ({
  id: name,
  name,
  issuer: 'https://idp.example',
  client_id: 'c',
  domains: [],
  just_in_time: false,
  active: true,
  organization_id,
  ...(configured ? { configured } : {}),
});

describe('domains and connections', () => {
  it('tells own, inherited and configured ones apart', () => {
    expect(originOf(connection('x', 'a'), 'a')).toBe('own');
    expect(originOf(connection('x', 'root'), 'a')).toBe('inherited');
    expect(originOf(connection('x', 'root', true), 'a')).toBe('configured');
  });

  it('offers only verified domains, at or above, each once', () => {
    expect(verifiedDomains([domain('b.example', 'a', true), domain('a.example', 'root', true), domain('c.example', 'a', false)])).toEqual([
      'a.example',
      'b.example',
    ]);
  });

  it('puts own unverified domains first, then own verified, then inherited', () => {
    const sorted = sortDomains([domain('z.example', 'root', true), domain('b.example', 'a', true), domain('c.example', 'a', false)], 'a');
    expect(sorted.map((d) => d.domain)).toEqual(['c.example', 'b.example', 'z.example']);
  });

  it('puts own connections first, then inherited, then the configured one', () => {
    const sorted = sortConnections([connection('Server', 'root', true), connection('Parent', 'root'), connection('Mine', 'a')], 'a');
    expect(sorted.map((c) => c.name)).toEqual(['Mine', 'Parent', 'Server']);
  });
});

describe('the outcome of a test sign-in', () => {
  it('reads success with the address, an error key, and nothing', () => {
    expect(readSsoTest(new URLSearchParams('sso_test=ok&sso_test_email=ann%40dealer.example'))).toEqual({
      ok: true,
      email: 'ann@dealer.example',
    });
    expect(readSsoTest(new URLSearchParams('sso_test=sso_email_not_confirmed'))).toEqual({ ok: false, key: 'sso_email_not_confirmed' });
    expect(readSsoTest(new URLSearchParams('x=1'))).toBeNull();
  });

  it('never takes text from the address as a key', () => {
    expect(readSsoTest(new URLSearchParams('sso_test=<b>hi</b>'))).toEqual({ ok: false, key: 'sign_in_error_unknown' });
  });
});
