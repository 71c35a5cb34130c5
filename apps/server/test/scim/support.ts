import { expect } from 'vitest';
import type { HttpClient, HttpResponse } from '../support/http.js';
import type { TestPortal } from '../support/portal.js';

/**
 * A directory's side of SCIM for the tests: a token made through the API, and requests to
 * $PUBLIC_URL/scim/v2 as a directory sends them (bearer token, application/scim+json).
 */

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
export const LIST_RESPONSE = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const ORGANIZATION_EXTENSION = 'urn:partner-portal:scim:schemas:extension:organization:1.0:User';

/** Make a SCIM token of an organization as one of its userManagers; its id and secret. */
export async function makeToken(manager: HttpClient, organizationId: string, name = 'Entra ID'): Promise<{ id: string; token: string }> {
  const res = await manager.post(`/api/organizations/${organizationId}/scim-tokens`, { name });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; token: string };
}

export interface ScimOptions {
  /** a raw body, sent as it is */
  raw?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

/** A directory calling the portal's SCIM endpoints with its token. */
export class Directory {
  constructor(
    private readonly portal: TestPortal,
    readonly token: string,
  ) {}

  async request<T = any>(method: string, path: string, body?: unknown, options: ScimOptions = {}): Promise<HttpResponse<T>> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}`, accept: 'application/scim+json', ...options.headers };
    let payload: string | undefined;
    if (options.raw !== undefined) payload = options.raw;
    else if (body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined) headers['content-type'] = options.contentType ?? 'application/scim+json';
    const res = await fetch(`${this.portal.url}/scim/v2${path}`, { method, headers, body: payload });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : text;
    } catch {
      // not JSON: left as text
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }

  get<T = any>(path: string, options?: ScimOptions) {
    return this.request<T>('GET', path, undefined, options);
  }
  post<T = any>(path: string, body?: unknown, options?: ScimOptions) {
    return this.request<T>('POST', path, body, options);
  }
  put<T = any>(path: string, body?: unknown, options?: ScimOptions) {
    return this.request<T>('PUT', path, body, options);
  }
  patch<T = any>(path: string, body?: unknown, options?: ScimOptions) {
    return this.request<T>('PATCH', path, body, options);
  }
  delete<T = any>(path: string, options?: ScimOptions) {
    return this.request<T>('DELETE', path, undefined, options);
  }

  /** GET /Users?filter=userName eq "…" */
  findByUserName(userName: string) {
    return this.get(`/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`);
  }
}

/** A user as Microsoft Entra ID's provisioning creates one (its default attribute mapping). */
export function entraUser(email: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    schemas: [USER_SCHEMA, 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
    externalId: `ext-${email.split('@')[0]}`,
    userName: email,
    active: true,
    displayName: 'Julia Weber',
    title: 'Sales',
    emails: [{ primary: true, type: 'work', value: email }],
    phoneNumbers: [{ type: 'work', value: '+31 20 555 0100' }],
    addresses: [{ type: 'work', locality: 'Groenlo', country: 'NL', primary: false }],
    meta: { resourceType: 'User' },
    name: { formatted: 'Julia Weber', familyName: 'Weber', givenName: 'Julia' },
    preferredLanguage: 'de-DE',
    'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: 'Sales', employeeNumber: '42' },
    ...extra,
  };
}

/** A PatchOp request body. */
export const patchOp = (...operations: Record<string, unknown>[]) => ({ schemas: [PATCH_OP], Operations: operations });

/** Expect a SCIM error answer: the status (also as a string in the body) and, when given, the scimType. */
export function expectScimError(res: HttpResponse, status: number, scimType?: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/scim\+json/);
  expect(res.body.schemas).toEqual([ERROR_SCHEMA]);
  expect(res.body.status).toBe(String(status));
  if (scimType) expect(res.body.scimType).toBe(scimType);
}
