import { readFile } from 'node:fs/promises';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { createUser } from '@partner-portal/server/test-kit';
import { checkScreen, open, signedIn, SCREENSHOTS, usePortalAndBrowser } from '../support/portal.js';

/**
 * An authenticator app set up on the phone that shows the page (the QR code cannot be scanned by
 * it): the otpauth: link opens the app itself; the recovery codes that follow can be copied,
 * downloaded as a .txt and printed on their own. At 390 px in Brazilian Portuguese and Dutch, and
 * screenshots at 768 and 1280 px.
 */
const e2e = usePortalAndBrowser();

const code = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate();

const TEXTS = {
  'pt-BR': {
    setUp: 'Configurar um aplicativo autenticador',
    openInApp: 'Abrir no aplicativo autenticador',
    key: 'Chave para digitar manualmente',
    code: 'Código do aplicativo',
    copy: 'Copiar',
    copied: 'Copiado',
    download: 'Baixar (.txt)',
    print: 'Imprimir',
    fileTitle: 'Códigos de recuperação do Partner Portal',
    done: 'Já os guardei',
  },
  nl: {
    setUp: 'Authenticator-app instellen',
    openInApp: 'Openen in authenticator-app',
    key: 'Sleutel om met de hand in te typen',
    code: 'Code uit de app',
    copy: 'Kopiëren',
    copied: 'Gekopieerd',
    download: 'Downloaden (.txt)',
    print: 'Afdrukken',
    fileTitle: 'Herstelcodes Partnerportaal',
    done: 'Ik heb ze bewaard',
  },
} as const;

describe.each([
  ['pt-BR', 390],
  ['nl', 390],
  ['pt-BR', 1280],
  ['nl', 768],
] as const)('an authenticator app on a phone (%s, %i px)', (language, width) => {
  it('opens the app by its otpauth: link; the recovery codes are copied, downloaded as .txt and printed', async () => {
    const words = TEXTS[language];
    const user = await createUser(e2e.portal);
    const context = await signedIn(e2e.browser, e2e.portal, user.id, { language, viewport: { width, height: 844 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const { page, watch } = await open(context, '/profile');
    await page.getByRole('button', { name: words.setUp }).click();

    // the link opens the authenticator app with the same key the QR code holds
    const link = page.getByRole('link', { name: words.openInApp });
    await link.waitFor();
    const href = (await link.getAttribute('href')) ?? '';
    expect(href).toMatch(/^otpauth:\/\/totp\//);
    const key = (await page.getByLabel(words.key).innerText()).replace(/\s+/g, '');
    expect(new URL(href).searchParams.get('secret')).toBe(key);
    await checkScreen(page, watch, `authenticator-link-${language}`);

    await page.getByLabel(words.code).fill(code(key));
    await page.getByLabel(words.code).press('Enter');
    const list = page.getByTestId('recovery-codes');
    await list.waitFor();
    const codes = (await list.locator('li').allInnerTexts()).map((c) => c.trim());
    expect(codes).toHaveLength(10);
    await checkScreen(page, watch, `authenticator-codes-${language}`);

    // copy: the codes, one a line
    await page.getByRole('button', { name: words.copy }).click();
    await page.getByRole('button', { name: words.copied }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(codes.join('\n'));

    // download: a .txt with a title line and the codes
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: words.download }).click()]);
    expect(download.suggestedFilename()).toBe('recovery-codes.txt');
    const text = await readFile(await download.path(), 'utf8');
    expect(text.split('\n')[0]).toBe(words.fileTitle);
    for (const c of codes) expect(text).toContain(`\n${c}\n`);

    // print: the browser's print, and in print only the codes are visible
    await page.evaluate(() => {
      (window as unknown as { printed: number }).printed = 0;
      window.print = () => void (window as unknown as { printed: number }).printed++;
    });
    await page.getByRole('button', { name: words.print }).click();
    expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
    await page.emulateMedia({ media: 'print' });
    const visibility = (target: string) =>
      page.evaluate((selector) => getComputedStyle(document.querySelector(selector)!).visibility, target);
    expect(await visibility('[data-testid="recovery-codes"] li')).toBe('visible');
    expect(await visibility('header')).toBe('hidden');
    await page.screenshot({ path: `${SCREENSHOTS}account-authenticator-print-${language}-${width}.png`, fullPage: true });
    await page.emulateMedia({ media: 'screen' });

    await page.getByRole('button', { name: words.done }).click();
    await list.waitFor({ state: 'detached' });
    await context.close();
  });
});
