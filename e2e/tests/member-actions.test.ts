import { beforeAll, describe, expect, it } from 'vitest';
import { buildWorld, type World } from '@partner-portal/server/test-kit';
import { axeProblems, whenStill } from '../support/browser.js';
import { open, openDialog, signedIn, usePortalAndBrowser } from '../support/portal.js';

/**
 * The member and invitation actions a manager can trust: those the user may not take are
 * disabled with the reason, rights named in words (as the rights editor names them), also in a
 * refusal; on phones each action carries its words; expired invitations are shown, to be sent again.
 */
const e2e = usePortalAndBrowser();
let world: World;

beforeAll(async () => {
  world = await buildWorld(e2e.portal);
});

/** The refusal: the reason, and the rights in words. */
const REFUSAL = {
  nl: {
    remove: (email: string) => `${email} verwijderen`,
    reason: 'Je kunt geen lid wijzigen of verwijderen dat rechten heeft die je zelf niet hebt',
    rights: ['Partner Portal: Suborganisaties beheren', 'Loyaliteit & inruil: Toegang'],
    remove_dialog: ['Gebruiker verwijderen', 'Verwijderen'],
  },
  'pt-BR': {
    remove: (email: string) => `Remover ${email}`,
    reason: 'Você não pode alterar nem remover um membro que tem permissões que você não tem',
    rights: ['Partner Portal: Gerenciar suborganizações', 'Fidelidade e troca: Acesso'],
    remove_dialog: ['Remover usuário', 'Remover'],
  },
} as const;

/** The words of the member actions, then of the invitation actions. */
const WORDS = {
  nl: [
    ['Rechten bewerken', 'Tweede factoren resetten', 'Gebruiker verwijderen', 'Overal afmelden', 'Ondersteunen'],
    ['Uitnodiging opnieuw versturen', 'Uitnodiging intrekken'],
  ],
  'pt-BR': [
    ['Editar direitos', 'Redefinir segundos fatores', 'Remover usuário', 'Desconectar em todos os lugares', 'Suporte'],
    ['Reenviar convite', 'Revogar convite'],
  ],
} as const;

/** An expired invitation sent again: its state before and after, the button and the toast. */
const EXPIRED = {
  nl: {
    states: ['Verlopen', 'In afwachting'],
    resend: (email: string) => `Uitnodiging opnieuw versturen naar ${email}`,
    resent: 'De uitnodiging is opnieuw verstuurd',
  },
  'pt-BR': {
    states: ['Expirado', 'Pendente'],
    resend: (email: string) => `Reenviar convite para ${email}`,
    resent: 'O convite foi reenviado',
  },
} as const;

const LANGUAGES = ['nl', 'pt-BR'] as const;

describe('member and invitation actions', () => {
  for (const language of LANGUAGES) {
    it(`disables what a userManager may not do to a member with more rights, naming the rights in words (${language}, 1280 px)`, async () => {
      const context = await signedIn(e2e.browser, e2e.portal, world.users.userManager.id, { language, viewport: 'wide' });
      const { page, watch } = await open(context, `/manage-organization/${world.dealerA.id}`);
      const table = page.locator('#org-users-table');
      // the organizationManager holds a right the userManager lacks: no removal, the reason in words
      const manager = world.users.organizationManager.email;
      const text = REFUSAL[language];
      const refused = table.getByRole('button', { name: new RegExp(`^${text.remove(manager).replace(/[.+]/g, '\\$&')} \\(`) });
      // shown, and the page still (its later sections load after the table and move it)
      await refused.waitFor();
      await whenStill(page);
      expect(await refused.getAttribute('aria-disabled')).toBe('true');
      const name = (await refused.getAttribute('aria-label')) ?? '';
      expect(name).toContain(text.reason);
      expect(name).toContain(text.rights[0]);
      expect(name).not.toContain('partner_portal.');
      await refused.click({ force: true });
      await whenStill(page);
      expect(await page.getByRole('dialog').count()).toBe(0);
      await refused.hover();
      await page.getByRole('tooltip').filter({ hasText: text.rights[0] }).waitFor();

      // a member who gained a right since the page loaded: the server refuses, the dialog names the right in words
      const gainer = await world.fresh.member(world.dealerA);
      await page.reload();
      const button = table.getByRole('button', { name: text.remove(gainer.email), exact: true });
      await button.waitFor();
      await e2e.portal.services.db.query(`UPDATE memberships SET rights = '{"loyalty": {"user_access": true}}' WHERE id = $1`, [
        gainer.membershipId,
      ]);
      await button.click();
      const dialog = await openDialog(page, text.remove_dialog[0]);
      await dialog.getByRole('button', { name: text.remove_dialog[1], exact: true }).click();
      await dialog.getByText(text.rights[1]).waitFor();
      expect(await dialog.textContent()).not.toContain('loyalty.user_access');
      expect(await axeProblems(page)).toEqual([]);
      await page.screenshot({ path: `/tmp/shots-members-ui/refusal-${language}-1280.png` });
      expect(watch.problems.filter((p) => !/status of 403/.test(p))).toEqual([]);
      await context.close();
    });

    for (const width of [390, 768]) {
      it(`shows every row action with its words on a phone or small tablet (${language}, ${width} px)`, async () => {
        // an organization of its own: its few rows all shown (4 unless 'view all')
        const organization = await world.fresh.organization(world.dealerA);
        const member = await world.fresh.member(organization);
        const invitation = await world.fresh.invitation(organization);
        const context = await signedIn(e2e.browser, e2e.portal, world.users.userManager.id, {
          language,
          viewport: { width, height: 900 },
        });
        const { page, watch } = await open(context, `/manage-organization/${organization.id}`);
        const users = page.locator('#org-users-table');
        // the rows and their actions, not only the table: the buttons are counted below
        await users.getByText(member.email).waitFor();
        await users.getByRole('button').first().waitFor();
        const invitations = page.locator('#org-invitations-table');
        await invitations.getByText(invitation.email).waitFor();
        await invitations.getByRole('button').first().waitFor();
        for (const [list, words] of [
          [users, WORDS[language][0]],
          [invitations, WORDS[language][1]],
        ] as const) {
          const buttons = await list
            .getByRole('button')
            .evaluateAll((all) => all.map((b) => ({ text: (b as HTMLElement).innerText.trim(), right: b.getBoundingClientRect().right })));
          expect(buttons.length).toBeGreaterThan(0);
          for (const b of buttons) {
            expect(words).toContain(b.text);
            expect(b.right).toBeLessThanOrEqual(width);
          }
        }
        await whenStill(page);
        expect(await axeProblems(page)).toEqual([]);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        await page.screenshot({ path: `/tmp/shots-members-ui/actions-${language}-${width}.png`, fullPage: true });
        expect(watch.problems).toEqual([]);
        await context.close();
      });
    }

    it(`shows an expired invitation, marked so, and sends it again (${language}, 1280 px)`, async () => {
      const organization = await world.fresh.organization(world.dealerA);
      const invitation = await world.fresh.invitation(organization);
      await e2e.portal.services.db.query("UPDATE invitations SET expires_at = now() - interval '1 day' WHERE id = $1", [invitation.id]);
      const context = await signedIn(e2e.browser, e2e.portal, world.users.userManager.id, { language, viewport: 'wide' });
      const { page, watch } = await open(context, `/manage-organization/${organization.id}`);
      const text = EXPIRED[language];
      const row = page.locator('#org-invitations-table').getByRole('row').filter({ hasText: invitation.email });
      await row.getByText(text.states[0], { exact: true }).waitFor();
      expect(await axeProblems(page)).toEqual([]);
      await page.screenshot({ path: `/tmp/shots-members-ui/expired-${language}-1280.png`, fullPage: true });
      await row.getByRole('button', { name: text.resend(invitation.email) }).click();
      await page.getByText(text.resent).waitFor();
      await row.getByText(text.states[1], { exact: true }).waitFor();
      await e2e.portal.smtp.waitFor(invitation.email, () => true);
      expect(watch.problems).toEqual([]);
      await context.close();
    });
  }
});
