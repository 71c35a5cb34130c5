import { expect } from 'vitest';
import { hashPassword } from '../../src/password-hashing.js';
import { HttpClient, type HttpResponse } from '../support/http.js';
import type { TestPortal } from '../support/portal.js';
import type { DealerIdp } from '../support/dealer-idp.js';
import { createOrg, rootOrg, rights, type Org } from '../organizations/fixtures.js';

/**
 * What the single sign-on tests share: a dealer's tree, people of its domain, domains verified
 * with SQL (the domains' own calls are tested elsewhere), and a browser that walks from the portal
 * to the dealer's identity provider and back.
 */
export const PASSWORD = 'Dealer-Passw0rd!x';

/** A domain verified by an organization, as the domains' DNS check would leave it. */
export async function verifyDomain(portal: TestPortal, organizationId: string, domain: string): Promise<void> {
  await portal.services.db.query(
    `INSERT INTO organization_domains (organization_id, domain, verification_value, verified_at, checked_at)
     VALUES ($1, $2, 'partner-portal-verification=test', now(), now())
     ON CONFLICT (organization_id, domain) DO UPDATE SET verified_at = now()`,
    [organizationId, domain],
  );
}

export interface Person {
  userId: string;
  email: string;
  client: HttpClient;
}

/** A member with this address (a password unless `password: null`). */
export async function createPerson(
  portal: TestPortal,
  org: Org,
  email: string,
  options: { password?: string | null; manager?: 'organization' | 'user' | 'both' } = {},
): Promise<Person> {
  const password = options.password === undefined ? PASSWORD : options.password;
  const user = await portal.services.db.query<{ id: string }>(
    `INSERT INTO users (email, first_name, last_name, language_code, password_hash, terms_accepted_at, password_changed_at)
     VALUES ($1, 'Pat', 'Person', 'en', $2, now(), now()) RETURNING id`,
    [email, password ? await hashPassword(password) : null],
  );
  const userId = user.rows[0]!.id;
  const r = rights((x) => {
    if (options.manager === 'organization' || options.manager === 'both') x.partner_portal.user_sub_organization_manager = true;
    if (options.manager === 'user' || options.manager === 'both') x.partner_portal.user_user_manager = true;
  });
  await portal.services.db.query(
    'INSERT INTO memberships (organization_id, user_id, email, organization_path, rights) VALUES ($1, $2, $3, $4, $5)',
    [org.id, userId, email, org.path, JSON.stringify(r)],
  );
  return { userId, email, client: await portal.sessionFor(userId) };
}

/**
 * A dealer's tree: the provider's root, the dealer (the middle organization, where the connection
 * lives), a region below it and a farm below that; a sibling dealer beside it.
 */
export interface DealerTree {
  root: Org;
  dealer: Org;
  region: Org;
  farm: Org;
  sibling: Org;
}

let trees = 0;
export async function buildDealerTree(portal: TestPortal): Promise<DealerTree> {
  const root = await rootOrg(portal);
  const n = ++trees;
  const dealer = await createOrg(portal, root, `Dealer ${n}`, { canCreate: true });
  const region = await createOrg(portal, dealer, `Region ${n}`, { canCreate: true });
  const farm = await createOrg(portal, region, `Farm ${n}`, { canCreate: true });
  const sibling = await createOrg(portal, root, `Sibling ${n}`, { canCreate: true });
  return { root, dealer, region, farm, sibling };
}

/** POST a connection (201 expected unless `status` says otherwise); returns its id. */
export async function createConnection(
  client: HttpClient,
  organizationId: string,
  body: Record<string, unknown>,
  status = 201,
): Promise<HttpResponse> {
  const res = await client.post(`/api/organizations/${organizationId}/sso-connections`, { just_in_time: false, ...body });
  expect(res.status, res.text).toBe(status);
  return res;
}

/** A browser: one cookie jar for the portal and one for the dealer's provider, X-CSRF only where the portal's API wants it. */
export class Browser {
  readonly portal: HttpClient;
  readonly idp: HttpClient;

  constructor(
    private readonly portalUrl: string,
    private readonly dealer: DealerIdp,
    /** headers every request sends (Accept-Language) */
    private readonly headers: Record<string, string> = {},
  ) {
    this.portal = new HttpClient(portalUrl);
    this.idp = new HttpClient(dealer.issuer);
  }

  private jar(url: string): HttpClient {
    return url.startsWith(this.dealer.issuer) ? this.idp : this.portal;
  }

  async get(url: string): Promise<HttpResponse> {
    const absolute = url.startsWith('http') ? url : `${this.portalUrl}${url}`;
    return this.jar(absolute).get(absolute, { headers: this.headers });
  }

  /**
   * Follow redirects until a page answers, a page of the portal's web app is reached (not its API
   * nor its OpenID provider), or an address of neither the portal nor the dealer (a client's).
   */
  async follow(url: string): Promise<{ url: string; res: HttpResponse | null }> {
    let next = url.startsWith('http') ? url : `${this.portalUrl}${url}`;
    for (let i = 0; i < 15; i++) {
      const portalPage = next.startsWith(this.portalUrl) && !/^\/(api|connect|\.well-known)\//.test(new URL(next).pathname);
      const elsewhere = !next.startsWith(this.portalUrl) && !next.startsWith(this.dealer.issuer);
      if (portalPage || elsewhere) return { url: next, res: null };
      const res = await this.get(next);
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) return { url: next, res };
      next = new URL(location, next).toString();
    }
    throw new Error('too many redirects');
  }

  /** Go through a challenge URL to the dealer's sign-in page, sign in as the account, follow back: the web app's page reached. */
  async signInAt(challengeUrl: string, account: string): Promise<URL> {
    const page = await this.follow(challengeUrl);
    expect(page.url.startsWith(`${this.dealer.issuer}/interaction/`), `${page.url} ${page.res?.text ?? ''}`).toBe(true);
    expect(page.res?.text).toContain('name="account"');
    const posted = await this.idp.request('POST', page.url, {
      raw: `account=${encodeURIComponent(account)}`,
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(posted.status, posted.text).toBe(303);
    const back = await this.follow(new URL(posted.headers.get('location')!, this.dealer.issuer).toString());
    return new URL(back.url);
  }

  /** The e-mail step, then the dealer's sign-in: the web app's page reached. */
  async signIn(email: string, account: string): Promise<URL> {
    const step = await this.portal.post('/api/identity/email-login', { email });
    expect(step.status, step.text).toBe(200);
    expect(step.body.external_login, `${email} is not routed to a provider`).toBeTruthy();
    return this.signInAt(step.body.external_login as string, account);
  }

  /** The named error of a login page reached with ?loginError=. */
  async loginError(landing: URL): Promise<{ error: string; params?: Record<string, string> }> {
    const id = landing.searchParams.get('loginError');
    expect(id, `no login error at ${landing.toString()}`).toBeTruthy();
    const res = await this.portal.get(`/api/identity/login-error?errorId=${encodeURIComponent(id!)}`);
    expect(res.status).toBe(200);
    return res.body;
  }
}
