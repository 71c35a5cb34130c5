import { describe, expect, it } from 'vitest';
import { createOrg } from '@partner-portal/server/test-kit';
import { rootOrganization } from '../support/organizations.js';
import { checkScreen, open, openDialog, signedIn, usePortalAndBrowser } from '../support/portal.js';

/**
 * The allowed-domains field of the edit-organization modal (provider administrators): each chip is
 * read by the contracts' rule as it is added, a space does not split "bad domain!" into two chips,
 * and a refused chip is shown as such with the domain named; the form waits until it is removed.
 * In German and Brazilian Portuguese at 1280 px (and 390 px for the look).
 */
const e2e = usePortalAndBrowser();

const TEXTS = {
  de: {
    edit: 'Organisation bearbeiten',
    title: (name: string) => `${name} bearbeiten`,
    label: 'Erlaubte E-Mail-Domains',
    refused: 'Keine E-Mail-Domain: "bad domain!", "localhost"',
    remove: (domain: string) => `${domain} entfernen`,
    update: 'Aktualisieren',
    limited: 'Einladungen nur an @farm.example',
  },
  'pt-BR': {
    edit: 'Editar organização',
    title: (name: string) => `Editar ${name}`,
    label: 'Domínios de e-mail permitidos',
    refused: 'Não é um domínio de e-mail: "bad domain!", "localhost"',
    remove: (domain: string) => `Remover ${domain}`,
    update: 'Atualizar',
    limited: 'Convites limitados a @farm.example',
  },
} as const;

describe.each([
  ['de', 1280],
  ['pt-BR', 1280],
  ['pt-BR', 390],
] as const)('the allowed-domains field (%s, %i px)', (language, width) => {
  it('keeps "bad domain!" one chip, shows it refused by name, and saves once it is gone', async () => {
    const words = TEXTS[language];
    const org = await createOrg(e2e.portal, await rootOrganization(e2e.portal), `Dealer Domains ${language} ${width}`);
    const context = await signedIn(e2e.browser, e2e.portal, e2e.portal.adminUserId, { language, viewport: { width, height: 900 } });
    const { page, watch } = await open(context, `/manage-organization/${org.id}`);
    await page.getByRole('button', { name: words.edit }).click();
    const dialog = await openDialog(page, words.title(org.name));
    const field = dialog.getByLabel(words.label, { exact: true });

    // a comma ends a chip, a space does not; each chip is read as the server reads it
    await field.pressSequentially('@Farm.Example,bad domain!,localhost');
    await field.press('Enter');
    const pills = dialog.locator('.mantine-Pill-root');
    expect(await pills.allInnerTexts()).toEqual(['farm.example', 'bad domain!', 'localhost']);
    expect(await dialog.locator('.mantine-Pill-root[data-invalid]').allInnerTexts()).toEqual(['bad domain!', 'localhost']);
    await dialog.getByText(words.refused).waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await dialog.getByRole('button', { name: words.update }).isDisabled()).toBe(true);
    await checkScreen(page, watch, `domains-refused-${language}`);

    // removed, the field is clean and the form saves the domain kept
    await dialog.getByRole('button', { name: words.remove('bad domain!') }).click();
    await dialog.getByRole('button', { name: words.remove('localhost') }).click();
    expect(await dialog.getByText(words.refused).count()).toBe(0);
    await dialog.getByRole('button', { name: words.update }).click();
    await page.getByTestId('allowed-domains').getByText(words.limited).waitFor();
    const stored = await e2e.portal.services.db.query<{ domain: string }>(
      'SELECT domain FROM organization_email_domains WHERE organization_id = $1',
      [org.id],
    );
    expect(stored.rows).toEqual([{ domain: 'farm.example' }]);
    await context.close();
  });
});

describe('the server', () => {
  it('names the refused domain, read by the same rule', async () => {
    const org = await createOrg(e2e.portal, await rootOrganization(e2e.portal), 'Dealer Domains API');
    const admin = await e2e.portal.sessionFor(e2e.portal.adminUserId);
    const answer = await admin.put(`/api/organizations/${org.id}/allowed-email-domains`, {
      allowed_email_domains: ['farm.example', ' @Bad Domain!'],
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ i18NTranslationKey: 'invalid_email_domain', params: { domain: 'bad domain!' } });
  });
});
