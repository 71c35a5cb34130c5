import type { OrganizationRow } from '../scope/queries.js';
import type { ChangeEvent } from '../webhooks/changes.js';

/**
 * The organization events of webhooks (docs/integrations.md, "Webhooks"), recorded with the change
 * (recordChange, webhooks/changes.ts): created, updated (only when something changed, named in
 * `changed`), deleted. The organization is the event's organization: its own webhooks and its ancestors' hear it.
 */
type EventOrganization = Pick<OrganizationRow, 'id' | 'name' | 'path' | 'parent_id'>;

const dataOf = (org: EventOrganization) => ({ name: org.name, path: org.path, parent_id: org.parent_id });

export function organizationCreated(org: EventOrganization): ChangeEvent {
  return { type: 'organization.created', organization: org, data: dataOf(org) };
}

/** organization.updated, when `changed` names anything (else null: no event). */
export function organizationUpdated(org: EventOrganization, changed: string[]): ChangeEvent | null {
  if (!changed.length) return null;
  return { type: 'organization.updated', organization: org, data: { ...dataOf(org), changed } };
}

/** After the delete: the organization's own webhooks went with it, its ancestors' hear it. */
export function organizationDeleted(org: EventOrganization): ChangeEvent {
  return { type: 'organization.deleted', organization: org, data: dataOf(org) };
}

/** `[field]` when the two lists hold different values (in any order), else nothing. */
export function changedList(field: string, before: readonly string[], after: readonly string[]): string[] {
  const key = (values: readonly string[]) => [...values].sort().join('\n');
  return key(before) === key(after) ? [] : [field];
}
