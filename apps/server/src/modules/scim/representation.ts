import { hash } from 'node:crypto';
import { SCIM_ORGANIZATION_EXTENSION, userLanguageOf, type UserLanguage } from '@partner-portal/contracts';
import type { ScimUserRow } from './queries.js';
import { scimError, USER_SCHEMA, type ScimObject, type SCIMMY } from './scimmy.js';

/**
 * A member as a SCIM User (RFC 7643 §4.1) and back: userName and the one (work, primary) e-mail
 * address are the member's address; name.givenName and name.familyName, preferredLanguage (a user
 * language of the portal), active, externalId, and the organization extension's organizationId.
 */

/** The users' base URL of a portal ($PUBLIC_URL/scim/v2/Users). */
export const usersUrl = (publicUrl: string) => `${publicUrl}/scim/v2/Users`;

const iso = (value: Date | string) => new Date(value).toISOString();

/** The resource without its meta: what its version is computed from. */
function attributesOf(row: ScimUserRow): ScimObject {
  // a part the member does not have is left out, not sent as an empty string (RFC 7643 §2.5)
  const name = {
    ...(row.first_name ? { givenName: row.first_name } : {}),
    ...(row.last_name ? { familyName: row.last_name } : {}),
  };
  return {
    schemas: [USER_SCHEMA, SCIM_ORGANIZATION_EXTENSION],
    id: row.id,
    ...(row.scim_external_id !== null ? { externalId: row.scim_external_id } : {}),
    userName: row.email,
    ...(Object.keys(name).length ? { name } : {}),
    preferredLanguage: row.language_code,
    active: row.deactivated_at === null,
    emails: [{ value: row.email, type: 'work', primary: true }],
    [SCIM_ORGANIZATION_EXTENSION]: { organizationId: row.organization_id },
  };
}

/** The version of a member's resource (meta.version, the ETag): a weak tag of what it shows. */
export function versionOf(row: ScimUserRow): string {
  return `W/"${hash('sha256', JSON.stringify(attributesOf(row)), 'base64url').slice(0, 27)}"`;
}

export function toScimUser(row: ScimUserRow, publicUrl: string): ScimObject {
  return {
    ...attributesOf(row),
    meta: {
      resourceType: 'User',
      created: iso(row.created_at),
      lastModified: iso(row.updated_at),
      location: `${usersUrl(publicUrl)}/${row.id}`,
      version: versionOf(row),
    },
  };
}

/** What a directory asks a member to be, read from a coerced inbound User. */
export interface ScimUserInput {
  userName: string;
  /** the primary (else work, else first) e-mail address, when any */
  email: string | null;
  givenName: string;
  familyName: string;
  /** the user language the directory's preferredLanguage names (its nearest, userLanguageOf); null: none given or none of the portal's, the member's stays */
  language: UserLanguage | null;
  /** absent: unchanged (a new user is active) */
  active: boolean | undefined;
  externalId: string | null;
  /** absent: unchanged (a new user joins the token's organization) */
  organizationId: string | undefined;
}

const NAME_LIMIT = 100;

function nameField(value: string | undefined, field: string): string {
  const name = (value ?? '').trim();
  if (name.length > NAME_LIMIT) throw scimError(400, 'invalidValue', `${field} is longer than ${NAME_LIMIT} characters`);
  return name;
}

export function fromScimUser(instance: SCIMMY.Schemas.User): ScimUserInput {
  const emails = instance.emails ?? [];
  const address = emails.find((e) => e.primary === true) ?? emails.find((e) => e.type === 'work') ?? emails[0];
  const extension = (instance as unknown as Record<string, { organizationId?: unknown } | undefined>)[SCIM_ORGANIZATION_EXTENSION];
  const organizationId = extension?.organizationId;
  const externalId = (instance as { externalId?: string }).externalId;
  if (externalId !== undefined && externalId.length > 300) throw scimError(400, 'invalidValue', 'externalId is longer than 300 characters');
  return {
    userName: instance.userName.trim(),
    email: address?.value?.trim() || null,
    givenName: nameField(instance.name?.givenName, 'name.givenName'),
    familyName: nameField(instance.name?.familyName, 'name.familyName'),
    language: userLanguageOf(instance.preferredLanguage),
    active: instance.active,
    externalId: externalId === undefined || externalId === '' ? null : externalId,
    organizationId: typeof organizationId === 'string' && organizationId !== '' ? organizationId : undefined,
  };
}
