import { mkdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildWorld, type World } from '@partner-portal/server/test-kit';
import { axeProblems } from '../support/browser.js';
import { open, openDialog, signedIn, usePortalAndBrowser } from '../support/portal.js';
import { widthsFor } from '../support/grid.js';

/**
 * Texts and dates a dealer reads: one date format per language on every screen (members,
 * invitations, sessions), the same terms everywhere, error texts that start with a capital, the
 * singular title for one member, and an audit trail that says it has no entries yet rather than
 * that none match filters nobody set.
 */
const e2e = usePortalAndBrowser();
let world: World;
const SHOTS = '/tmp/shots-low-a';

beforeAll(async () => {
  world = await buildWorld(e2e.portal);
  mkdirSync(SHOTS, { recursive: true });
  // a last sign-in to show in the members table
  await e2e.portal.services.db.query('UPDATE users SET last_sign_in_at = now() WHERE id = $1', [world.users.member.id]);
});

const WORDS = {
  'pt-BR': {
    /** day/month/year as Intl writes it for the language */
    date: /^\d{2}\/\d{2}\/\d{4}$/,
    select: (email: string) => `Selecionar ${email}`,
    inactive: 'Sem acessar há',
    removeSelected: 'Remover a seleção',
    removeOne: 'Remover membro',
    cancel: 'Cancelar',
    sessions: 'Sessões ativas',
    started: /Conectado em: (\S+)/,
    auditShow: 'Mostrar a trilha de auditoria',
    auditNoneYet: 'Ainda não há registros na trilha de auditoria.',
    auditNoMatch: 'Nenhum registro corresponde a estes filtros.',
    actor: 'Feito por',
  },
  de: {
    date: /^\d{2}\.\d{2}\.\d{4}$/,
    select: (email: string) => `${email} auswählen`,
    inactive: 'Nicht angemeldet seit',
    removeSelected: 'Auswahl entfernen',
    removeOne: 'Mitglied entfernen',
    cancel: 'Abbrechen',
    sessions: 'Aktive Sitzungen',
    started: /Angemeldet: (\S+)/,
    auditShow: 'Änderungsprotokoll anzeigen',
    auditNoneYet: 'Im Änderungsprotokoll gibt es noch keine Einträge.',
    auditNoMatch: 'Keine Einträge für diese Filter.',
    actor: 'Ausgeführt von',
  },
} as const;

const LANGUAGES = ['pt-BR', 'de'] as const;

/** Texts that look like a date on their own: digits and separators. */
const looksLikeDate = (text: string) => /^\d{1,4}\D{1,3}\d{1,2}\D{1,3}\d{1,4}\.?$/.test(text.trim());

describe('texts and dates', () => {
  for (const language of LANGUAGES) {
    const words = WORDS[language];

    it(`writes the dates of members, invitations and sessions in one format (${language}, 1280 px)`, async () => {
      const invitation = await world.fresh.invitation(world.dealerA);
      const context = await signedIn(e2e.browser, e2e.portal, world.users.ancestorManager.id, { language, viewport: 'wide' });
      const { page } = await open(context, `/manage-organization/${world.dealerA.id}`);
      const invitationRow = page.locator('#org-invitations-table tr', { hasText: invitation.email });
      await invitationRow.waitFor();
      const invitationDates = (await invitationRow.locator('td').allInnerTexts()).map((s) => s.trim()).filter(looksLikeDate);
      expect(invitationDates).toHaveLength(3);
      const lastSignIn = page.locator('#org-users-table time[data-last-sign-in]').first();
      await lastSignIn.waitFor();
      const dates = [...invitationDates, (await lastSignIn.innerText()).trim()];
      await page.screenshot({ path: `${SHOTS}/dates-manage-${language}.png` });

      await page.goto('/profile');
      const sessions = page.getByRole('region', { name: words.sessions });
      const started = sessions.getByText(words.started).first();
      await started.waitFor();
      const sessionDate = words.started.exec(await started.innerText())![1]!.replace(/,$/, '');
      dates.push(sessionDate);
      for (const date of dates) expect(date).toMatch(words.date);
      await context.close();
    });

    it(`titles the removal of one member in the singular (${language}, 1280 px)`, async () => {
      const context = await signedIn(e2e.browser, e2e.portal, world.users.ancestorManager.id, { language, viewport: 'wide' });
      const { page } = await open(context, `/manage-organization/${world.dealerA.id}#access-review`);
      // the access review lists who has not signed in for 90 days (never, for the organizationManager), to select
      await page.getByLabel(words.inactive).selectOption('90');
      await page.getByRole('checkbox', { name: words.select(world.users.organizationManager.email) }).check();
      await page.getByRole('button', { name: words.removeSelected }).click();
      const dialog = await openDialog(page, new RegExp(`^${words.removeOne}$`));
      expect(await axeProblems(page)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/remove-one-${language}.png` });
      await dialog.getByRole('button', { name: words.cancel }).click();
      await dialog.waitFor({ state: 'detached' });
      await context.close();
    });

    for (const width of widthsFor(language, LANGUAGES, [390, 768, 1280] as const)) {
      it(`says the audit trail has no entries yet when no filter is set (${language}, ${width} px)`, async () => {
        const context = await signedIn(e2e.browser, e2e.portal, world.users.ancestorManager.id, {
          language,
          viewport: { width, height: 900 },
        });
        const { page } = await open(context, `/manage-organization/${world.north.id}#audit-trail`);
        const trail = page.getByTestId('audit-trail');
        await trail.getByRole('button', { name: words.auditShow }).click();
        await trail.getByText(words.auditNoneYet, { exact: true }).waitFor();
        expect(await trail.getByText(words.auditNoMatch).count()).toBe(0);
        expect(await axeProblems(page)).toEqual([]);
        await page.screenshot({ path: `${SHOTS}/audit-empty-${language}-${width}.png`, fullPage: true });
        await trail.getByLabel(words.actor, { exact: true }).fill('nobody-like-this');
        await trail.getByText(words.auditNoMatch, { exact: true }).waitFor();
        await context.close();
      });
    }
  }

  /** An error text of the invitation dialog, in two languages where it started in lower case. */
  const INVITE = {
    'pt-BR': {
      invite: 'Convidar usuário',
      title: /^Convidar usuário para /,
      email: 'Endereço de e-mail',
      send: 'Enviar convite',
      refused: 'Não é permitido enviar convite para este endereço de e-mail: @dealer-a.example',
    },
    'en-GB': {
      invite: 'Invite user',
      title: /^Invite user to /,
      email: 'E-mail address',
      send: 'Send invitation',
      refused: 'Not allowed to send invite to email address: @dealer-a.example',
    },
  } as const;
  for (const language of ['pt-BR', 'en-GB'] as const) {
    it(`starts an error text with a capital (${language}, 390 px)`, async () => {
      const words = INVITE[language];
      const branch = await world.fresh.organization(world.dealerA);
      await e2e.portal.services.db.query('INSERT INTO organization_email_domains (organization_id, domain) VALUES ($1, $2)', [
        branch.id,
        'dealer-a.example',
      ]);
      const context = await signedIn(e2e.browser, e2e.portal, world.users.ancestorManager.id, {
        language,
        viewport: { width: 390, height: 844 },
      });
      const { page } = await open(context, `/manage-organization/${branch.id}`);
      await page.getByRole('button', { name: words.invite }).click();
      const dialog = await openDialog(page, words.title);
      await dialog.getByRole('textbox', { name: words.email }).fill('someone@elsewhere.example');
      await dialog.getByRole('button', { name: words.send }).click();
      // a case-sensitive match: getByText with a string would ignore the case
      await dialog.getByText(new RegExp(`^${words.refused}`)).waitFor();
      expect(await axeProblems(page)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/invite-refused-${language}.png` });
      await context.close();
    });
  }

  it('uses one term for the licence agreement (de) and for revoking an invitation (en-GB), 1280 px', async () => {
    const de = await signedIn(e2e.browser, e2e.portal, world.users.ancestorManager.id, { language: 'de', viewport: 'wide' });
    const { page: dePage } = await open(de, `/manage-organization/${world.north.id}`);
    await dePage.getByRole('link', { name: 'Endbenutzer-Lizenzvereinbarung' }).waitFor();
    expect(await dePage.getByText(/Lizenzvertrag/).count()).toBe(0);
    await de.close();

    const en = await signedIn(e2e.browser, e2e.portal, world.users.ancestorManager.id, { language: 'en-GB', viewport: 'wide' });
    const { page } = await open(en, `/manage-organization/${world.north.id}#audit-trail`);
    const trail = page.getByTestId('audit-trail');
    await trail.getByRole('button', { name: 'Show the audit trail' }).click();
    await trail.getByRole('combobox', { name: 'Action' }).click();
    await page.getByRole('option', { name: 'Invitation revoked', exact: true }).waitFor();
    expect(await page.getByRole('option', { name: /withdrawn/i }).count()).toBe(0);
    await en.close();
  });

  it('says in a Dutch sentence that a sub-organization of that name already exists (nl, 390 px)', async () => {
    const nl = await signedIn(e2e.browser, e2e.portal, world.users.ancestorManager.id, {
      language: 'nl',
      viewport: { width: 390, height: 844 },
    });
    const { page } = await open(nl, `/manage-organization/${world.dealerA.id}`);
    await page.getByRole('button', { name: 'Suborganisatie aanmaken' }).click();
    const dialog = await openDialog(page, /^Suborganisatie aanmaken in /);
    await dialog.getByLabel('Naam').fill(world.north.name);
    await dialog.getByRole('button', { name: 'Aanmaken', exact: true }).click();
    await dialog.getByRole('alert').getByText('Er is al een suborganisatie met dit pad').waitFor();
    expect(await axeProblems(page)).toEqual([]);
    await nl.close();
  });
});
