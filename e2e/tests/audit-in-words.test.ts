import { describe, expect, it } from 'vitest';
import { createMember, createOrg, type Org, rights } from '@partner-portal/server/test-kit';
import { axeProblems, newPage, whenStill } from '../support/browser.js';
import { screenshot, signedIn, usePortalAndBrowser } from '../support/portal.js';

/**
 * The audit trail in words (docs/decisions/018-the-administrators-day.md, "Audit trail"): after a
 * member is removed, another's rights change, an invitation is revoked and a file of invitations is
 * sent, the trail reads as sentences in the interface language, rights by their application and
 * right names, with no raw field names or keys; the action filter's list is axe clean. German and
 * Brazilian Portuguese, on a desktop and a phone.
 */
const e2e = usePortalAndBrowser();

const WORDS = {
  de: {
    show: 'Änderungsprotokoll anzeigen',
    action: 'Aktion',
    removed: (who: string, org: string) => `Klaus Müller hat ${who} entfernt (${org})`,
    signedOut: (who: string, org: string) => `Klaus Müller hat ${who} überall abgemeldet (${org})`,
    rights: (who: string, org: string) => `Klaus Müller hat die Rechte von ${who} geändert (${org})`,
    given: '+ Hinzugefügt: Treue & Inzahlungnahme: Zugriff',
    taken: '− Entzogen: Academy: Zugriff',
    revoked: (who: string, org: string) => `Klaus Müller hat die Einladung an ${who} zurückgezogen (${org})`,
    bulk: (org: string) => `Klaus Müller hat 2 Personen aus einer Datei zu ${org} eingeladen`,
    bulkRefused: '1 Zeile der Datei abgelehnt',
  },
  'pt-BR': {
    show: 'Mostrar a trilha de auditoria',
    action: 'Ação',
    removed: (who: string, org: string) => `Klaus Müller removeu ${who} (${org})`,
    signedOut: (who: string, org: string) => `Klaus Müller desconectou ${who} de todos os lugares (${org})`,
    rights: (who: string, org: string) => `Klaus Müller alterou as permissões de ${who} (${org})`,
    given: '+ Adicionado: Fidelidade e troca: Acesso',
    taken: '− Retirado: Academy: Acesso',
    revoked: (who: string, org: string) => `Klaus Müller revogou o convite de ${who} (${org})`,
    bulk: (org: string) => `Klaus Müller convidou 2 pessoas de um arquivo para ${org}`,
    bulkRefused: '1 linha do arquivo recusada',
  },
} as const;

/** The four changes of the brief, made by the administrator (Klaus Müller) in a new organization of their own. */
async function changesIn(name: string): Promise<{ org: Org; removed: string; changed: string; invited: string }> {
  const { db } = e2e.portal.services;
  await db.query("UPDATE users SET first_name = 'Klaus', last_name = 'Müller' WHERE id = $1", [e2e.portal.adminUserId]);
  const root = (await db.query<Org>('SELECT id, path, name FROM organizations WHERE id = $1', [e2e.portal.rootOrganizationId])).rows[0]!;
  const org = await createOrg(e2e.portal, root, name);
  const admin = await e2e.portal.sessionFor(e2e.portal.adminUserId);
  const julia = await createMember(
    e2e.portal,
    org,
    'Julia',
    rights((r) => (r.academy.user_access = true)),
  );
  const bruno = await createMember(
    e2e.portal,
    org,
    'Bruno',
    rights((r) => (r.academy.user_access = true)),
  );
  // signed out everywhere first: the trail keeps her name after her removal
  expect((await admin.post(`/api/members/${julia.memberId}/sign-out`)).status).toBeLessThan(300);
  expect((await admin.delete(`/api/organizations/${org.id}/members/${julia.memberId}`)).status).toBeLessThan(300);
  const changed = await admin.put(`/api/members/rights/${bruno.memberId}`, { rights: rights((r) => (r.loyalty.user_access = true)) });
  expect(changed.status).toBeLessThan(300);
  const invited = `ana.${org.path.split('/').pop()}@example.com`;
  const made = await admin.post(`/api/organizations/${org.id}/invitations`, { email_address: invited });
  expect(made.status).toBe(201);
  expect((await admin.put(`/api/invitations/${made.body.invitation.invitation_id}/revoke`)).status).toBeLessThan(300);
  const tag = org.path.split('/').pop();
  const csv = `email,first_name,last_name,language\nrui.${tag}@example.com,Rui,Costa,pt-BR\nlea.${tag}@example.com,Lea,Berg,de\nnot-an-address,No,Body,de`;
  expect((await admin.post(`/api/organizations/${org.id}/invitations/bulk`, { csv })).status).toBe(200);
  return { org, removed: 'Julia Tester', changed: 'Bruno Tester', invited };
}

describe.each([
  ['de', 1280],
  ['de', 390],
  ['pt-BR', 1280],
  ['pt-BR', 390],
] as const)('the audit trail in words (%s, %i px)', (language, width) => {
  it('reads each change as a sentence, with no raw keys, and its action filter is axe clean', async () => {
    const words = WORDS[language];
    const { org, removed, changed, invited } = await changesIn(`Farmtech ${language} ${width}`);
    const context = await signedIn(e2e.browser, e2e.portal, e2e.portal.adminUserId, { language, viewport: { width, height: 900 } });
    try {
      const { page, watch } = await newPage(context);
      page.setDefaultTimeout(15_000);
      await page.goto(`/manage-organization/${org.id}#audit-trail`);
      const trail = page.getByTestId('audit-trail');
      await trail.getByRole('button', { name: words.show }).click();
      await trail.getByTestId('audit-entry').nth(3).waitFor();
      const sentences = await trail.getByTestId('audit-sentence').allTextContents();
      expect(sentences).toEqual(
        expect.arrayContaining([
          words.removed(removed, org.name),
          words.signedOut(removed, org.name),
          words.rights(changed, org.name),
          words.revoked(invited, org.name),
          words.bulk(org.name),
        ]),
      );
      // the signs are for the eye; a screen reader hears "added" and "taken away"
      const rightsEntry = trail.locator('[data-action="member.rights.update"]');
      expect(await rightsEntry.getByRole('listitem').allTextContents()).toEqual([words.given, words.taken]);
      expect(await trail.locator('[data-action="invitation.bulk"]').getByRole('listitem').allTextContents()).toEqual([words.bulkRefused]);
      // nothing of the stored records' raw shape
      const text = (await trail.textContent()) ?? '';
      for (const raw of [
        'rights.',
        'user_id',
        'email_address',
        'is_external_identity_provider',
        'REVOKED',
        'PENDING',
        'refused 0',
        'true',
        'false',
      ]) {
        expect(text, raw).not.toContain(raw);
      }
      await whenStill(page);
      expect(await axeProblems(page)).toEqual([]);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await screenshot(page, `audit-in-words-${language}-${width}`, { fullPage: true });

      // the action filter's list: no scrolling region the keyboard cannot reach
      await trail.getByRole('combobox', { name: words.action, exact: true }).click();
      await page.getByRole('listbox').waitFor();
      await whenStill(page);
      expect(await axeProblems(page)).toEqual([]);
      await screenshot(page, `audit-in-words-${language}-${width}-actions`);
      await page.keyboard.press('Escape');
      expect(watch.problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
