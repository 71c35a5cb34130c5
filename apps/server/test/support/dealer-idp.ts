import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import Provider, { type Adapter, type AdapterPayload } from 'oidc-provider';
import { freePort } from './portal.js';

/**
 * A dealer's identity provider for tests (a Microsoft Entra ID, Okta, … stand-in): a second
 * oidc-provider on 127.0.0.1 with the accounts and clients the test gives it. Its interaction page
 * works for a browser too: GET shows a form with `<input name="account">` and a "Sign in" button,
 * POST signs in the account named (its `sub` or its e-mail address); consent is granted at once.
 * The ID token carries the account's e-mail, names and `amr` (conformIdTokenClaims off).
 */
export interface DealerAccount {
  sub: string;
  email?: string | null;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
  /** the authentication methods the ID token names (RFC 8176), e.g. ['pwd', 'mfa'] */
  amr?: string[];
}

export interface DealerClient {
  client_id: string;
  /** a confidential client (client_secret_basic); without it, a public client (PKCE) */
  client_secret?: string;
  redirect_uris: string[];
}

export interface DealerIdp {
  /** the issuer, e.g. http://127.0.0.1:40123 (no trailing slash) */
  issuer: string;
  addAccount(account: DealerAccount): void;
  addClient(client: DealerClient): void;
  /** the login_hint of each authorization request, in order */
  readonly loginHints: string[];
  close(): Promise<void>;
}

/** The provider's storage: one map per model, so that clients can be added after it started. */
function memoryAdapter(stores: Map<string, Map<string, { payload: AdapterPayload; expiresAt: number | null }>>) {
  return class MemoryAdapter implements Adapter {
    private readonly store: Map<string, { payload: AdapterPayload; expiresAt: number | null }>;
    constructor(model: string) {
      this.store = stores.get(model) ?? new Map();
      stores.set(model, this.store);
    }
    upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      this.store.set(id, { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : null });
      return Promise.resolve();
    }
    find(id: string): Promise<AdapterPayload | undefined> {
      const entry = this.store.get(id);
      if (!entry || (entry.expiresAt !== null && entry.expiresAt < Date.now())) return Promise.resolve(undefined);
      return Promise.resolve(entry.payload);
    }
    findByUserCode(): Promise<undefined> {
      return Promise.resolve(undefined);
    }
    findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return Promise.resolve([...this.store.values()].find((e) => e.payload.uid === uid)?.payload);
    }
    consume(id: string): Promise<void> {
      const entry = this.store.get(id);
      if (entry) entry.payload.consumed = Math.floor(Date.now() / 1000);
      return Promise.resolve();
    }
    destroy(id: string): Promise<void> {
      this.store.delete(id);
      return Promise.resolve();
    }
    revokeByGrantId(grantId: string): Promise<void> {
      for (const [id, entry] of this.store) if (entry.payload.grantId === grantId) this.store.delete(id);
      return Promise.resolve();
    }
  };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Start a dealer's identity provider on 127.0.0.1 (a free port unless given). */
export async function startDealerIdp(
  options: { accounts?: DealerAccount[]; clients?: DealerClient[]; port?: number } = {},
): Promise<DealerIdp> {
  const port = options.port ?? (await freePort());
  const issuer = `http://127.0.0.1:${port}`;
  const accounts = new Map<string, DealerAccount>();
  const stores = new Map<string, Map<string, { payload: AdapterPayload; expiresAt: number | null }>>();
  const Adapter = memoryAdapter(stores);
  const loginHints: string[] = [];
  const findByName = (name: string) =>
    accounts.get(name) ?? [...accounts.values()].find((a) => a.email && a.email.toLowerCase() === name.trim().toLowerCase());

  const provider = new Provider(issuer, {
    adapter: Adapter,
    // amr (how the account signed in) rides in the ID token with the openid scope
    claims: { openid: ['sub', 'amr'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'] },
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    // its own cookie names: a browser shares cookies across the ports of 127.0.0.1, and the portal's provider uses the defaults
    cookies: {
      keys: ['dealer-idp-cookie-key-for-tests'],
      names: { session: '_dealer_session', interaction: '_dealer_interaction', resume: '_dealer_interaction_resume' },
    },
    pkce: { required: () => true },
    findAccount: (_ctx, id) => {
      const account = accounts.get(id);
      if (!account) return undefined;
      return {
        accountId: id,
        claims: () => ({
          sub: id,
          ...(account.email ? { email: account.email } : {}),
          ...(account.email_verified !== undefined ? { email_verified: account.email_verified } : {}),
          ...(account.given_name ? { given_name: account.given_name } : {}),
          ...(account.family_name ? { family_name: account.family_name } : {}),
        }),
      };
    },
  });
  provider.on('authorization.accepted', (ctx) => {
    const hint = ctx.oidc.params?.login_hint;
    if (typeof hint === 'string') loginHints.push(hint);
  });

  async function interaction(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    if (req.method === 'POST') {
      let body = '';
      for await (const chunk of req) body += (chunk as Buffer).toString();
      // "cancel": the person refuses, or the provider does not know them — it answers the client with access_denied
      if (new URLSearchParams(body).has('cancel')) {
        await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'The user cancelled' });
        return;
      }
      const account = findByName(new URLSearchParams(body).get('account') ?? '');
      if (!account) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(details.uid, 'Unknown account'));
        return;
      }
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: account.sub, ...(account.amr ? { amr: account.amr } : {}) } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    if (details.prompt.name === 'consent') {
      const grant = new provider.Grant({ accountId: details.session!.accountId, clientId: String(details.params.client_id) });
      const scope = details.params.scope;
      grant.addOIDCScope(typeof scope === 'string' ? scope : 'openid');
      await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(details.uid, null));
  }

  function page(uid: string, error: string | null): string {
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dealer sign-in</title></head><body>
<main><h1>Dealer sign-in</h1>${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/interaction/${escapeHtml(uid)}">
<label for="account">Account</label> <input id="account" name="account" autocomplete="username">
<button type="submit">Sign in</button>
</form></main></body></html>`;
  }

  const callback = provider.callback();
  const server: Server = createServer((req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      interaction(req, res).catch((err: Error) => res.writeHead(500).end(err.message));
    } else {
      void callback(req, res);
    }
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));

  const idp: DealerIdp = {
    issuer,
    loginHints,
    addAccount(account) {
      accounts.set(account.sub, account);
    },
    addClient(client) {
      const metadata = {
        client_id: client.client_id,
        redirect_uris: client.redirect_uris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        ...(client.client_secret
          ? { client_secret: client.client_secret, token_endpoint_auth_method: 'client_secret_basic' }
          : { token_endpoint_auth_method: 'none' }),
      };
      void new Adapter('Client').upsert(client.client_id, metadata as AdapterPayload, 0);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  for (const account of options.accounts ?? []) idp.addAccount(account);
  for (const client of options.clients ?? []) idp.addClient(client);
  return idp;
}
