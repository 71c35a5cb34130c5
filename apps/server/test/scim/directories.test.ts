import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortalWith, type TestPortal } from '../support/portal.js';
import { buildFixture, type Fixture } from '../organizations/fixtures.js';
import { Directory, expectScimError, LIST_RESPONSE, makeToken, ORGANIZATION_EXTENSION, patchOp, USER_SCHEMA } from './support.js';

/**
 * Directories unmodified (the operating contract, "SCIM 2.0 provisioning"; docs/integrations.md,
 * "What a User is in the portal"): `/Schemas` and `/ResourceTypes` describe exactly what the portal
 * keeps, and what Microsoft Entra ID, Okta and JumpCloud send by default beyond it (roles of any
 * type, title, phone numbers, addresses, the enterprise extension, custom extensions) is accepted
 * and ignored on POST, PUT and PATCH, never refused. A language the portal does not speak is taken
 * as the nearest one of the same primary language, else it leaves the member's as it is.
 */
let portal: TestPortal;
let f: Fixture;
let scim: Directory;
beforeAll(async () => {
  ({ portal, built: f } = await startPortalWith(buildFixture));
  scim = new Directory(portal, (await makeToken(f.userMgrA.client, f.tree.a.id, 'Entra ID')).token);
});
afterAll(() => portal?.close());

const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const OKTA_CUSTOM = 'urn:ietf:params:scim:schemas:extension:dealer:2.0:User';
let n = 0;
const unique = (label: string) => `${label}.${Date.now()}.${++n}@dealer-a.example`;

/** The attributes a user resource of the portal has, whoever made it. */
const KEPT_KEYS = [
  'active',
  'emails',
  'externalId',
  'id',
  'meta',
  'name',
  'preferredLanguage',
  'schemas',
  'userName',
  ORGANIZATION_EXTENSION,
];

/** A create request as Microsoft Entra ID's provisioning service sends it, with an app role assigned. */
function entraCreate(email: string): Record<string, unknown> {
  return {
    schemas: [USER_SCHEMA, ENTERPRISE],
    externalId: '8e2b6c4c-1f0a-4a55-9d3e-0c1b2a3d4e5f',
    userName: email,
    active: true,
    displayName: 'Julia Weber',
    title: 'Service advisor',
    preferredLanguage: 'de-AT',
    emails: [{ primary: true, type: 'work', value: email }],
    meta: { resourceType: 'User' },
    name: { formatted: 'Julia Weber', familyName: 'Weber', givenName: 'Julia' },
    phoneNumbers: [
      { primary: true, type: 'work', value: '+43 1 555 0100' },
      { type: 'mobile', value: '+43 660 555 0101' },
      { type: 'fax', value: '+43 1 555 0102' },
    ],
    addresses: [
      {
        type: 'work',
        formatted: 'Ringstraße 1, 1010 Wien',
        streetAddress: 'Ringstraße 1',
        locality: 'Wien',
        region: 'Wien',
        postalCode: '1010',
        country: 'AT',
        primary: false,
      },
    ],
    roles: [{ primary: 'False', type: 'WindowsAzureActiveDirectoryRole', display: 'Dealer user', value: 'DealerUser' }],
    nickName: 'Jule',
    userType: 'Member',
    [ENTERPRISE]: {
      employeeNumber: '4711',
      department: 'After sales',
      costCenter: 'AS-1',
      organization: 'Autohaus Weber',
      division: 'Vienna',
      manager: { value: '2f6b2c6e-0000-4000-8000-000000000001' },
    },
  };
}

/** A create request as Okta's SCIM 2.0 application sends it (its default attribute mappings and a custom attribute). */
function oktaCreate(email: string): Record<string, unknown> {
  return {
    schemas: [USER_SCHEMA, ENTERPRISE, OKTA_CUSTOM],
    userName: email,
    name: {
      givenName: 'Pieter',
      familyName: 'de Vries',
      middleName: 'Jan',
      honorificPrefix: 'Ir.',
      honorificSuffix: 'MSc',
      formatted: 'Ir. Pieter Jan de Vries MSc',
    },
    emails: [
      { primary: true, value: email, type: 'work' },
      { primary: false, value: `home.${email}`, type: 'home' },
    ],
    displayName: 'Pieter de Vries',
    nickName: 'Piet',
    profileUrl: 'https://intranet.dealer-a.example/people/pieter',
    title: 'Workshop manager',
    userType: 'Employee',
    preferredLanguage: 'nl',
    locale: 'nl_NL',
    timezone: 'Europe/Amsterdam',
    active: true,
    password: 'Okta-Synced-Passw0rd!',
    phoneNumbers: [
      { primary: true, value: '+31 20 555 0100', type: 'work' },
      { value: '+31 6 5555 0101', type: 'mobile' },
    ],
    addresses: [
      { primary: true, type: 'work', streetAddress: 'Dam 1', locality: 'Amsterdam', region: 'NH', postalCode: '1012 JS', country: 'NL' },
    ],
    groups: [],
    [ENTERPRISE]: {
      employeeNumber: '0815',
      costCenter: 'WS',
      organization: 'Dealer A',
      division: 'North',
      department: 'Workshop',
      manager: { value: '00u1abcd', displayName: 'Anne Manager' },
    },
    [OKTA_CUSTOM]: { dealerCode: 'NL-0042', brands: ['Fendt', 'Valtra'] },
  };
}

/** A create request as JumpCloud's SCIM 2.0 application sends it. */
function jumpCloudCreate(email: string): Record<string, unknown> {
  return {
    schemas: [USER_SCHEMA, ENTERPRISE],
    userName: email,
    externalId: '64b7f0c2e4b0a1a2b3c4d5e6',
    name: { givenName: 'Claire', familyName: 'Martin', middleName: '', formatted: 'Claire Martin' },
    displayName: 'Claire Martin',
    emails: [{ value: email, type: 'work', primary: true }],
    title: 'Parts',
    active: true,
    locale: 'fr-FR',
    preferredLanguage: 'fr-FR',
    phoneNumbers: [{ value: '+33 1 55 55 01 00', type: 'work' }],
    addresses: [{ type: 'work', streetAddress: '1 rue de Rivoli', locality: 'Paris', postalCode: '75001', country: 'FR' }],
    [ENTERPRISE]: { employeeNumber: '17', department: 'Parts', manager: { value: '64b7f0c2e4b0a1a2b3c4d5e7' } },
  };
}

async function created(body: Record<string, unknown>) {
  const res = await scim.post('/Users', body);
  expect(res.status, res.text).toBe(201);
  return res;
}

describe('discovery describes what the portal keeps, nothing more', () => {
  it('/Schemas: the User schema with userName, name (givenName, familyName), preferredLanguage, active, emails (value, type, primary); the organization extension', async () => {
    const res = await scim.get('/Schemas');
    expect(res.status, res.text).toBe(200);
    expect(res.body.schemas).toEqual([LIST_RESPONSE]);
    const ids = res.body.Resources.map((s: { id: string }) => s.id);
    expect(ids.sort()).toEqual([ORGANIZATION_EXTENSION, USER_SCHEMA].sort());
    expect(res.body.totalResults).toBe(2);

    const user = res.body.Resources.find((s: { id: string }) => s.id === USER_SCHEMA);
    const names = (attributes: { name: string; subAttributes?: unknown[] }[]): unknown[] =>
      attributes.map((a) => (a.subAttributes ? { [a.name]: names(a.subAttributes as never) } : a.name));
    expect(names(user.attributes)).toEqual([
      'userName',
      { name: ['familyName', 'givenName'] },
      'preferredLanguage',
      'active',
      { emails: ['value', 'type', 'primary'] },
    ]);
    // no attribute with an empty set of allowed values (nothing a directory could send would pass)
    const all = JSON.stringify(res.body);
    expect(all).not.toContain('"canonicalValues":[]');

    const extension = res.body.Resources.find((s: { id: string }) => s.id === ORGANIZATION_EXTENSION);
    expect(names(extension.attributes)).toEqual(['organizationId']);
    expect((await scim.get(`/Schemas/${USER_SCHEMA}`)).body.attributes).toEqual(user.attributes);
    expectScimError(await scim.get(`/Schemas/${ENTERPRISE}`), 404);
  });

  it('/ResourceTypes: User with the organization extension only', async () => {
    const res = await scim.get('/ResourceTypes');
    expect(res.status, res.text).toBe(200);
    expect(res.body.Resources).toHaveLength(1);
    expect(res.body.Resources[0]).toMatchObject({ id: 'User', endpoint: '/Users', schema: USER_SCHEMA });
    expect(res.body.Resources[0].schemaExtensions).toEqual([{ schema: ORGANIZATION_EXTENSION, required: false }]);
    expect((await scim.get('/ResourceTypes/User')).body.schemaExtensions).toEqual([{ schema: ORGANIZATION_EXTENSION, required: false }]);
  });
});

describe('what directories send by default is accepted; the portal keeps its part', () => {
  it('Entra ID’s create (an app role of type WindowsAzureActiveDirectoryRole, the enterprise extension, phone numbers, title, addresses)', async () => {
    const email = unique('entra');
    const res = await created(entraCreate(email));
    expect(Object.keys(res.body).sort()).toEqual([...KEPT_KEYS].sort());
    expect(res.body).toMatchObject({
      schemas: [USER_SCHEMA, ORGANIZATION_EXTENSION],
      externalId: '8e2b6c4c-1f0a-4a55-9d3e-0c1b2a3d4e5f',
      userName: email,
      name: { givenName: 'Julia', familyName: 'Weber' },
      preferredLanguage: 'de',
      active: true,
      emails: [{ value: email, type: 'work', primary: true }],
      [ORGANIZATION_EXTENSION]: { organizationId: f.tree.a.id },
    });
    expect(Object.keys(res.body.name).sort()).toEqual(['familyName', 'givenName']);
    expect((await scim.get(`/Users/${res.body.id}`)).body).toEqual(res.body);
  });

  it('Okta’s create (middle name, nickName, locale, timezone, a password, a home address, a custom extension)', async () => {
    const email = unique('okta');
    const res = await created(oktaCreate(email));
    expect(Object.keys(res.body).sort()).toEqual(KEPT_KEYS.filter((key) => key !== 'externalId').sort());
    expect(res.body).toMatchObject({
      schemas: [USER_SCHEMA, ORGANIZATION_EXTENSION],
      userName: email,
      name: { givenName: 'Pieter', familyName: 'de Vries' },
      preferredLanguage: 'nl',
      emails: [{ value: email, type: 'work', primary: true }],
    });
    // the password is not taken: the member is invited to choose their own
    const hash = await portal.services.db.query('SELECT password_hash FROM users WHERE lower(email) = lower($1)', [email]);
    expect(hash.rows[0]).toEqual({ password_hash: null });
  });

  it('JumpCloud’s create', async () => {
    const email = unique('jumpcloud');
    const res = await created(jumpCloudCreate(email));
    expect(Object.keys(res.body).sort()).toEqual([...KEPT_KEYS].sort());
    expect(res.body).toMatchObject({ name: { givenName: 'Claire', familyName: 'Martin' }, preferredLanguage: 'fr' });
  });

  it('Okta’s PUT with its whole profile replaces what the portal keeps', async () => {
    const email = unique('okta.put');
    const { body: user } = await created(oktaCreate(email));
    const res = await scim.put(`/Users/${user.id}`, {
      ...oktaCreate(email),
      id: user.id,
      name: { givenName: 'Piet', familyName: 'Vries', middleName: 'J.' },
      title: 'Service manager',
      roles: [{ value: 'admin', type: 'OktaRole', primary: true }],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.name).toEqual({ givenName: 'Piet', familyName: 'Vries' });
    expect(res.body).not.toHaveProperty('title');
  });

  it('Entra ID’s PATCH shapes: Replace of title, the enterprise department, roles, and a value without path', async () => {
    const email = unique('entra.patch');
    const { body: user } = await created(entraCreate(email));
    const id = user.id as string;
    const ignoredOnly = await scim.patch(
      `/Users/${id}`,
      patchOp(
        { op: 'Replace', path: 'title', value: 'Sales manager' },
        { op: 'Replace', path: `${ENTERPRISE}:department`, value: 'Sales' },
        { op: 'Replace', path: `${ENTERPRISE}:manager`, value: '2f6b2c6e-0000-4000-8000-000000000002' },
        { op: 'Replace', path: 'roles', value: [{ primary: 'False', type: 'WindowsAzureActiveDirectoryRole', value: 'DealerAdmin' }] },
        { op: 'Add', path: 'roles', value: [{ primary: false, type: 'WindowsAzureActiveDirectoryRole', value: 'DealerUser' }] },
        { op: 'Remove', path: 'roles[value eq "DealerUser"]' },
        { op: 'Replace', path: 'phoneNumbers[type eq "mobile"].value', value: '+43 660 555 0199' },
        { op: 'Replace', path: 'addresses[type eq "work"].locality', value: 'Graz' },
        { op: 'Replace', path: 'displayName', value: 'Julia W.' },
        { op: 'Replace', path: 'name.formatted', value: 'Julia W.' },
        { op: 'Replace', path: 'nickName', value: 'J' },
        { op: 'Replace', path: 'userType', value: 'Guest' },
        { op: 'Replace', path: 'locale', value: 'de-AT' },
        { op: 'Replace', path: 'timezone', value: 'Europe/Vienna' },
        { op: 'Replace', path: `${OKTA_CUSTOM}:dealerCode`, value: 'AT-1' },
      ),
    );
    expect(ignoredOnly.status, ignoredOnly.text).toBe(200);
    expect(ignoredOnly.body).toEqual({ ...user, meta: expect.objectContaining({ version: user.meta.version }) });

    const mixed = await scim.patch(
      `/Users/${id}`,
      patchOp(
        {
          op: 'Replace',
          value: {
            title: 'Sales manager',
            displayName: 'Julia Berger',
            'name.givenName': 'Julia',
            'name.familyName': 'Berger',
            'name.formatted': 'Julia Berger',
            [`${ENTERPRISE}:department`]: 'Sales',
            [ENTERPRISE]: { employeeNumber: '4712' },
            roles: [{ primary: 'True', type: 'WindowsAzureActiveDirectoryRole', value: 'DealerAdmin' }],
            phoneNumbers: [{ type: 'work', value: '+43 1 555 0199' }],
            active: 'True',
          },
        },
        { op: 'Replace', path: 'roles', value: [{ primary: 'False', type: 'WindowsAzureActiveDirectoryRole', value: 'DealerUser' }] },
        { op: 'Replace', path: 'preferredLanguage', value: 'fr-CH' },
      ),
    );
    expect(mixed.status, mixed.text).toBe(200);
    expect(mixed.body).toMatchObject({ name: { givenName: 'Julia', familyName: 'Berger' }, preferredLanguage: 'fr', active: true });
    expect(Object.keys(mixed.body).sort()).toEqual([...KEPT_KEYS].sort());
    const audit = await portal.services.db.query<{ after: unknown }>(
      `SELECT after FROM audit_log WHERE action = 'member.update' AND target_id = $1`,
      [id],
    );
    expect(audit.rows.map((row) => row.after)).toEqual([
      { email_address: expect.any(String) as string, last_name: 'Berger', language_code: 'fr' },
    ]);
  });

  it('a value without path that names the organization extension still moves the member', async () => {
    const { body: user } = await created(entraCreate(unique('entra.move')));
    const res = await scim.patch(
      `/Users/${user.id}`,
      patchOp({
        op: 'Replace',
        value: { [`${ORGANIZATION_EXTENSION}:organizationId`]: f.tree.north.id, title: 'Moved', [`${ENTERPRISE}:department`]: 'North' },
      }),
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body[ORGANIZATION_EXTENSION]).toEqual({ organizationId: f.tree.north.id });
  });

  it('the parts of kept attributes it does not keep: name.middleName and name.formatted in a value, e-mail labels of any kind, emails[].display', async () => {
    const email = unique('parts');
    const res = await created({
      ...entraCreate(email),
      emails: [
        { value: email, type: 'Work', primary: 'True', display: 'Julia at work' },
        { value: `other.${email}`, type: 'internet', display: 'elsewhere' },
      ],
    });
    expect(res.body.emails).toEqual([{ value: email, type: 'work', primary: true }]);
    const patched = await scim.patch(
      `/Users/${res.body.id}`,
      patchOp(
        {
          op: 'replace',
          value: { name: { givenName: 'Jula', middleName: 'Maria', formatted: 'Jula Maria Weber', honorificPrefix: 'Dr.' } },
        },
        { op: 'Replace', path: 'emails[type eq "work"].display', value: 'Jula' },
        { op: 'Add', path: 'emails[type eq "home"].value', value: `home.${email}` },
        { op: 'Replace', path: 'name.middleName', value: 'M.' },
      ),
    );
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.name).toEqual({ givenName: 'Jula', familyName: 'Weber' });
    expect(patched.body.emails).toEqual([{ value: email, type: 'work', primary: true }]);
    const narrow = await scim.get(`/Users/${res.body.id}?attributes=displayName,title,userName`);
    expect(narrow.status, narrow.text).toBe(200);
    expect(Object.keys(narrow.body).sort()).toEqual(['id', 'schemas', 'userName']);
    const without = await scim.get(`/Users/${res.body.id}?excludedAttributes=${encodeURIComponent(`roles,${ENTERPRISE}:department`)}`);
    expect(without.status, without.text).toBe(200);
  });

  it('no longer filters on what it does not keep (displayName, name.formatted): 400 invalidFilter', async () => {
    for (const filter of ['displayName eq "Julia Weber"', 'name.formatted eq "Julia Weber"', 'title eq "Sales"'])
      expectScimError(await scim.get(`/Users?filter=${encodeURIComponent(filter)}`), 400, 'invalidFilter');
  });
});

describe('preferredLanguage: the nearest language of the portal, else unchanged', () => {
  it('de-AT is de, pt-PT is pt-BR; xx-YY is accepted and leaves a new member en', async () => {
    const austrian = await created({ ...entraCreate(unique('lang.de')), preferredLanguage: 'de-AT' });
    expect(austrian.body.preferredLanguage).toBe('de');
    const portuguese = await created({ ...entraCreate(unique('lang.pt')), preferredLanguage: 'pt-PT' });
    expect(portuguese.body.preferredLanguage).toBe('pt-BR');
    const unknown = await created({ ...entraCreate(unique('lang.xx')), preferredLanguage: 'xx-YY' });
    expect(unknown.body.preferredLanguage).toBe('en');
    const languages = await portal.services.db.query<{ language_code: string }>(
      'SELECT u.language_code FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.id = ANY($1) ORDER BY array_position($1, m.id)',
      [[austrian.body.id, portuguese.body.id, unknown.body.id]],
    );
    expect(languages.rows.map((row) => row.language_code)).toEqual(['de', 'pt-BR', 'en']);
  });

  it('xx-YY on PATCH or PUT leaves the member’s language as it is, and changes nothing', async () => {
    const email = unique('lang.keep');
    const { body: user } = await created({ ...entraCreate(email), preferredLanguage: 'de-AT' });
    const patched = await scim.patch(`/Users/${user.id}`, patchOp({ op: 'Replace', path: 'preferredLanguage', value: 'xx-YY' }));
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.preferredLanguage).toBe('de');
    expect(patched.body.meta.version).toBe(user.meta.version);
    const put = await scim.put(`/Users/${user.id}`, { ...entraCreate(email), preferredLanguage: 'xx-YY' });
    expect(put.status, put.text).toBe(200);
    expect(put.body.preferredLanguage).toBe('de');
    const changes = await portal.services.db.query(`SELECT 1 FROM audit_log WHERE action = 'member.update' AND target_id = $1`, [user.id]);
    expect(changes.rowCount).toBe(0);
  });
});
