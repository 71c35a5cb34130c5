import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortalWith, type TestPortal } from '../support/portal.js';
import { buildFixture, type Fixture } from '../organizations/fixtures.js';
import { Directory, entraUser, makeToken, patchOp, USER_SCHEMA } from './support.js';

/**
 * PatchOp requests in the shapes directories send them (RFC 7644 §3.5.2): the operation's name in
 * any letter case, a value without path whose keys are attribute paths, booleans as the strings
 * "True"/"False" (Microsoft Entra ID), and attributes named in full with the core schema's URN
 * (RFC 7644 §3.10 lets a client qualify any attribute name with its schema).
 */
let portal: TestPortal;
let f: Fixture;
let scim: Directory;
beforeAll(async () => {
  ({ portal, built: f } = await startPortalWith(buildFixture));
  scim = new Directory(portal, (await makeToken(f.userMgrA.client, f.tree.a.id, 'Entra ID')).token);
});
afterAll(() => portal?.close());

async function provisioned(): Promise<string> {
  const email = `patch.${Date.now()}.${Math.floor(Math.random() * 1e6)}@dealer-a.example`;
  const res = await scim.post('/Users', entraUser(email));
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

describe('PATCH /Users/{id}', () => {
  it('takes the operation in any letter case and a value without path, "False"/"True" as booleans', async () => {
    const id = await provisioned();
    const upper = await scim.patch(`/Users/${id}`, patchOp({ op: 'REPLACE', path: 'name.givenName', value: 'Anna' }));
    expect(upper.status, upper.text).toBe(200);
    expect(upper.body.name.givenName).toBe('Anna');
    const off = await scim.patch(
      `/Users/${id}`,
      patchOp({ op: 'Replace', value: { active: 'False', 'name.familyName': 'Berg', externalId: 'obj-1' } }),
    );
    expect(off.status, off.text).toBe(200);
    expect(off.body).toMatchObject({ active: false, externalId: 'obj-1', name: { givenName: 'Anna', familyName: 'Berg' } });
    const on = await scim.patch(`/Users/${id}`, patchOp({ op: 'add', value: { active: 'True', name: { givenName: 'Anne' } } }));
    expect(on.status, on.text).toBe(200);
    expect(on.body).toMatchObject({ active: true, name: { givenName: 'Anne', familyName: 'Berg' } });
  });

  it('takes attributes named in full with the core schema’s URN, as a path and as keys of a value', async () => {
    const id = await provisioned();
    const core = `${USER_SCHEMA}:`;
    const named = await scim.patch(
      `/Users/${id}`,
      patchOp(
        { op: 'Replace', path: `${core}name.givenName`, value: 'Carla' },
        { op: 'Replace', path: `${core.toUpperCase()}externalId`, value: 'obj-2' },
      ),
    );
    expect(named.status, named.text).toBe(200);
    expect(named.body).toMatchObject({ externalId: 'obj-2', name: { givenName: 'Carla' } });
    const off = await scim.patch(`/Users/${id}`, patchOp({ op: 'Replace', path: `${core}active`, value: 'False' }));
    expect(off.status, off.text).toBe(200);
    expect(off.body.active).toBe(false);
    const keys = await scim.patch(
      `/Users/${id}`,
      patchOp({ op: 'replace', value: { [`${core}active`]: 'True', [`${core}name.familyName`]: 'Dekker' } }),
    );
    expect(keys.status, keys.text).toBe(200);
    expect(keys.body).toMatchObject({ active: true, name: { givenName: 'Carla', familyName: 'Dekker' } });
  });
});
