import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createMember, createOrg } from '@partner-portal/server/test-kit';
import { rootOrganization } from '../support/organizations.js';
import { checkScreen, open, signedIn, usePortalAndBrowser } from '../support/portal.js';

/**
 * A manager who opens /manage-organization/{id} of an organization outside their subtree (a
 * bookmark, a link from someone else) is told it is not theirs to manage, and one that does not
 * exist that it does not exist, each with the way back to their own organization. In Dutch and
 * Brazilian Portuguese at 390 and 1280 px.
 */
const e2e = usePortalAndBrowser();

const TEXTS = {
  nl: {
    forbiddenTitle: 'Deze organisatie beheer je niet',
    notFoundTitle: 'Deze organisatie bestaat niet',
    back: 'Naar je eigen organisatie',
    generic: 'De actie kon niet worden uitgevoerd',
  },
  'pt-BR': {
    forbiddenTitle: 'Você não gerencia esta organização',
    notFoundTitle: 'Esta organização não existe',
    back: 'Ir para a sua organização',
    generic: 'Não foi possível concluir a ação',
  },
} as const;

describe.each([
  ['nl', 390],
  ['nl', 1280],
  ['pt-BR', 390],
  ['pt-BR', 1280],
] as const)('an organization that is not yours (%s, %i px)', (language, width) => {
  it('says it is not yours to manage, or that it does not exist, with the way back to your own', async () => {
    const words = TEXTS[language];
    const root = await rootOrganization(e2e.portal);
    const own = await createOrg(e2e.portal, root, `Eigen Dealer ${language} ${width}`, { canCreate: true });
    const other = await createOrg(e2e.portal, root, `Andere Dealer ${language} ${width}`);
    const manager = await createMember(e2e.portal, own, 'manager', (r) => {
      r.partner_portal.user_user_manager = true;
      r.partner_portal.user_sub_organization_manager = true;
    });
    const context = await signedIn(e2e.browser, e2e.portal, manager.userId, { language, viewport: { width, height: 844 } });

    // a bookmark of another dealer's organization: the server answers 403
    const { page, watch } = await open(context, `/manage-organization/${other.id}`);
    const alert = page.getByRole('alert').filter({ hasText: words.forbiddenTitle });
    await alert.waitFor();
    expect(await page.getByText(words.generic).count()).toBe(0);
    expect(await page.getByText(other.name).count()).toBe(0);
    await checkScreen(page, watch, `outside-forbidden-${language}`);
    await alert.getByRole('link', { name: words.back }).click();
    await page.waitForURL((url) => url.pathname === `/manage-organization/${own.id}`);
    await page.getByRole('heading', { level: 1, name: own.name }).waitFor();

    // an organization that does not exist (deleted, or a broken link): 404
    await page.goto(`/manage-organization/${randomUUID()}`);
    const gone = page.getByRole('alert').filter({ hasText: words.notFoundTitle });
    await gone.waitFor();
    await checkScreen(page, watch, `outside-not-found-${language}`);
    await gone.getByRole('link', { name: words.back }).click();
    await page.waitForURL((url) => url.pathname === `/manage-organization/${own.id}`);
    await context.close();
  });
});
