import { beforeAll, describe, expect, it } from 'vitest';
import { buildWorld, type World } from '@partner-portal/server/test-kit';
import { whenStill } from '../support/browser.js';
import { grid } from '../support/grid.js';
import { open, openDialog, signedIn, usePortalAndBrowser } from '../support/portal.js';

/**
 * A support session (docs/security.md, "Support sessions"): Dealer A's userManager starts one as a
 * member of a branch below (North, whose chain allows support access) from the members table —
 * reason and minutes — and is then the member in this browser, with the banner on every page; End
 * gives the browser back. The member's e-mail arrives in their language. At 390 and 1280 px, in
 * German and Brazilian Portuguese.
 */
const e2e = usePortalAndBrowser();
let world: World;

beforeAll(async () => {
  world = await buildWorld(e2e.portal);
  // the consent of Dealer A, which its branches inherit (PUT …/support-access in the integration tests)
  await e2e.portal.services.db.query('INSERT INTO support_access (organization_id, allowed) VALUES ($1, true)', [world.dealerA.id]);
});

const TEXTS = {
  de: {
    action: (email: string) => `Als ${email} unterstützen`,
    title: 'Als dieses Mitglied unterstützen',
    reason: 'Grund',
    start: 'Support-Sitzung starten',
    banner: /Sie sind für den Support als Julia Weber angemeldet .* endet um/,
    end: 'Beenden',
    mail: /ist für den Support als Sie im Partner Portal angemeldet/,
  },
  'pt-BR': {
    action: (email: string) => `Dar suporte como ${email}`,
    title: 'Dar suporte como este membro',
    reason: 'Motivo',
    start: 'Iniciar sessão de suporte',
    banner: /Você entrou como Julia Weber para dar suporte .* termina às/,
    end: 'Encerrar',
    mail: /entrou no Partner Portal como você para prestar suporte/,
  },
} as const;

const WIDTHS = [390, 1280] as const;

describe('a support session from the members table', () => {
  for (const [language, width] of grid(['de', 'pt-BR'] as const, WIDTHS)) {
    it(`starts as a member of a branch, shows the banner on every page, and ends with End (${language}, ${width} px)`, async () => {
      const text = TEXTS[language];
      const julia = await world.fresh.member(world.north);
      await e2e.portal.services.db.query("UPDATE users SET first_name = 'Julia', last_name = 'Weber', language_code = $2 WHERE id = $1", [
        julia.userId,
        language,
      ]);
      const supporter = world.users.userManager;
      const context = await signedIn(e2e.browser, e2e.portal, supporter.id, {
        language,
        viewport: { width, height: width < 500 ? 844 : 900 },
      });
      const { page } = await open(context, `/manage-organization/${world.north.id}`);
      await page.getByRole('button', { name: new RegExp(text.action(julia.email).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) }).click();
      const dialog = await openDialog(page, text.title);
      await dialog.getByLabel(text.reason).fill('Julia cannot find the invitation list');
      await dialog.getByRole('button', { name: text.start }).click();

      // the browser is Julia's now: the banner on the home page and on the profile
      const banner = page.getByTestId('support-banner');
      await banner.getByText(text.banner).waitFor();
      expect(new URL(page.url()).pathname).toBe('/');
      await page.goto('/profile');
      await banner.getByText(text.banner).waitFor();
      await whenStill(page);
      await page.screenshot({ path: `/tmp/shots-support/banner-${language}-${width}.png` });

      // Julia is told, in her language
      const mail = await e2e.portal.smtp.waitFor(julia.email);
      expect(mail.subject).toMatch(text.mail);

      await banner.getByRole('button', { name: text.end }).click();
      await banner.waitFor({ state: 'detached' });
      await expect
        .poll(
          async () =>
            ((await (await page.request.get('/api/identity/user-info', { headers: { 'x-csrf': '1' } })).json()) as { id: string }).id,
        )
        .toBe(supporter.id);
      await context.close();
    });
  }
});
