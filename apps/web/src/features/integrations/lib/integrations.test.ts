import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENTS } from '@partner-portal/contracts';
import { deliveryStatus, deliverySubject, integrationPanels, isAllEvents, lastAttempt, webhookEventGroups } from './integrations';

describe('integrationPanels', () => {
  it('shows service accounts to either manager, SCIM tokens to userManagers, webhooks to organizationManagers', () => {
    expect(integrationPanels({ userManager: true, organizationManager: true })).toEqual([
      'service-accounts',
      'scim',
      'webhooks',
      'audit-streams',
    ]);
    expect(integrationPanels({ userManager: true, organizationManager: false })).toEqual(['service-accounts', 'scim']);
    expect(integrationPanels({ userManager: false, organizationManager: true })).toEqual(['service-accounts', 'webhooks', 'audit-streams']);
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

describe('deliverySubject', () => {
  it("names the member's or invitee's address, else the organization's name, from the event's data", () => {
    const data = (fields: object) => ({ payload: { type: 'x', timestamp: '', data: { organization_id: 'o1', ...fields } } });
    expect(deliverySubject(data({ email_address: 'jan@dealer.example', first_name: 'Jan' }))).toBe('jan@dealer.example');
    expect(deliverySubject(data({ name: 'Farmtech B.V.', path: 'nedap/farmtech' }))).toBe('Farmtech B.V.');
    expect(deliverySubject(data({}))).toBeNull();
    expect(deliverySubject({ payload: null })).toBeNull();
    expect(deliverySubject({ payload: 'text' })).toBeNull();
  });
});

describe('deliveryStatus', () => {
  const at = (status: number | null) => ({ attempted_at: '2026-11-28T10:00:00Z', status, duration_ms: 5, error: null });
  it('reads a pending delivery that failed and will be tried again as failing', () => {
    expect(deliveryStatus({ state: 'pending', attempt_count: 1, attempts: [at(500)] })).toBe('failing');
    expect(deliveryStatus({ state: 'pending', attempt_count: 2, attempts: [at(500), at(null)] })).toBe('failing');
    expect(deliveryStatus({ state: 'pending', attempt_count: 0, attempts: [] })).toBe('pending');
    // sent again after it was delivered: waiting, not failing
    expect(deliveryStatus({ state: 'pending', attempt_count: 1, attempts: [at(204)] })).toBe('pending');
    expect(deliveryStatus({ state: 'failed', attempt_count: 8, attempts: [at(500)] })).toBe('failed');
    expect(deliveryStatus({ state: 'succeeded', attempt_count: 2, attempts: [at(500), at(204)] })).toBe('succeeded');
  });
});
