import { beforeAll, describe, expect, it } from 'vitest';
import { buildWorld, type World } from '@partner-portal/server/test-kit';
import { axeProblems, whenStill } from '../support/browser.js';
import { open, openDialog, signedIn, usePortalAndBrowser } from '../support/portal.js';

/**
 * A lost phone (docs/second-factors.md): the members table tells which members have a second
 * factor, and a userManager resets a member's factors from it, after a confirmation naming the
 * member and saying what the reset does. At 1280 px, in Dutch and Brazilian Portuguese.
 */
const e2e = usePortalAndBrowser();
let world: World;
let julia: { userId: string; membershipId: string; email: string };

beforeAll(async () => {
  world = await buildWorld(e2e.portal);
  julia = await world.fresh.member(world.dealerA);
  await e2e.portal.services.db.query("UPDATE users SET first_name = 'Julia', last_name = 'Weber' WHERE id = $1", [julia.userId]);
});

const TEXTS = {
  nl: {
    column: 'Tweede factor',
    set: 'Ingesteld',
    none: 'Geen',
    button: (email: string) => `De tweede factoren van ${email} resetten`,
    title: 'Tweede factoren resetten',
    question: 'De tweede factoren van Julia Weber resetten?',
    effect: /herstelcodes worden verwijderd/,
    done: 'De tweede factoren van Julia Weber zijn gereset',
  },
  'pt-BR': {
    column: 'Segundo fator',
    set: 'Configurado',
    none: 'Nenhum',
    button: (email: string) => `Redefinir os segundos fatores de ${email}`,
    title: 'Redefinir segundos fatores',
    question: 'Redefinir os segundos fatores de Julia Weber?',
    effect: /códigos de recuperação são removidos/,
    done: 'Os segundos fatores de Julia Weber foram redefinidos',
  },
} as const;

describe('resetting a member’s second factors', () => {
  for (const [language, text] of Object.entries(TEXTS)) {
    it(`shows who has a second factor and resets Julia's after a confirmation naming her (${language}, 1280 px)`, async () => {
      const db = e2e.portal.services.db;
      await db.query(
        "INSERT INTO user_totp (user_id, secret_encrypted, confirmed_at) VALUES ($1, 'sealed', now()) ON CONFLICT (user_id) DO UPDATE SET confirmed_at = now()",
        [julia.userId],
      );
      const context = await signedIn(e2e.browser, e2e.portal, world.users.userManager.id, { language, viewport: 'wide' });
      const { page, watch } = await open(context, `/manage-organization/${world.dealerA.id}`);
      const table = page.locator('#org-users-table');
      await table.getByRole('columnheader', { name: text.column }).waitFor();
      const row = table.getByRole('row').filter({ hasText: julia.email });
      await row.getByText(text.set, { exact: true }).waitFor();
      // a member without one: marked so, and nothing to reset
      const plain = table.getByRole('row').filter({ hasText: world.users.member.email });
      await plain.getByText(text.none, { exact: true }).waitFor();
      expect(
        await plain.getByRole('button', { name: new RegExp(`^${text.button(world.users.member.email)}`) }).getAttribute('aria-disabled'),
      ).toBe('true');

      await whenStill(page);
      expect(await axeProblems(page)).toEqual([]);
      await row.getByRole('button', { name: text.button(julia.email) }).click();
      const dialog = await openDialog(page, text.title);
      await dialog.getByText(text.question, { exact: false }).waitFor();
      await dialog.getByText(text.effect).waitFor();
      expect(await axeProblems(page)).toEqual([]);
      await page.screenshot({ path: `/tmp/shots-members-ui/reset-dialog-${language}-1280.png` });
      await dialog.getByRole('button', { name: text.title }).click();
      await page.getByText(text.done).waitFor();
      await dialog.waitFor({ state: 'detached' });
      await row.getByText(text.none, { exact: true }).waitFor();
      expect((await db.query('SELECT 1 FROM user_totp WHERE user_id = $1', [julia.userId])).rowCount).toBe(0);
      await whenStill(page);
      expect(await axeProblems(page)).toEqual([]);
      await page.screenshot({ path: `/tmp/shots-members-ui/members-${language}-1280.png`, fullPage: true });
      expect(watch.problems).toEqual([]);
      await context.close();
    });
  }
});
