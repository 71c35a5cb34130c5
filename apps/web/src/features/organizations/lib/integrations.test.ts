import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENTS } from '@partner-portal/contracts';
import { integrationPanels, isAllEvents, lastAttempt, webhookEventGroups } from './integrations';

describe('integrationPanels', () => {
  it('shows service accounts to either manager, SCIM tokens to userManagers, webhooks to organizationManagers', () => {
    expect(integrationPanels({ userManager: true, organizationManager: true })).toEqual(['service-accounts', 'scim', 'webhooks']);
    expect(integrationPanels({ userManager: true, organizationManager: false })).toEqual(['service-accounts', 'scim']);
    expect(integrationPanels({ userManager: false, organizationManager: true })).toEqual(['service-accounts', 'webhooks']);
    expect(integrationPanels({ userManager: false, organizationManager: false })).toEqual([]);
  });
});

describe('webhookEventGroups', () => {
  it('holds every event of the contract once, by the thing it is about', () => {
    const groups = webhookEventGroups();
    expect(groups.flatMap((g) => g.events)).toEqual([...WEBHOOK_EVENTS]);
    for (const { group, events } of groups) for (const event of events) expect(event.split('.')[0]).toBe(group);
  });
});

describe('isAllEvents', () => {
  it('is the subscription to "*"', () => {
    expect(isAllEvents(['*'])).toBe(true);
    expect(isAllEvents(['member.created'])).toBe(false);
  });
});

describe('lastAttempt', () => {
  const attempt = (status: number | null, error: string | null = null) => ({
    attempted_at: '2026-01-01T12:00:00.000Z',
    status,
    duration_ms: 12,
    error,
  });
  it('is the status of the latest answer, no answer, or not sent yet', () => {
    expect(lastAttempt({ attempts: [] })).toEqual({ kind: 'not-sent' });
    expect(lastAttempt({ attempts: [attempt(500), attempt(204)] })).toEqual({ kind: 'status', status: 204 });
    expect(lastAttempt({ attempts: [attempt(204), attempt(null, 'timeout')] })).toEqual({ kind: 'no-answer', error: 'timeout' });
  });
});
