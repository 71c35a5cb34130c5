import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { AdapterConstructor } from 'oidc-provider';
import type { Services } from '../services.js';
import { ensureSigningKey, loadSigningKeys, signingKeyFingerprint } from './keys.js';
import type { LoginPolicy } from './multi-factor.js';
import { createProvider, type ProviderRecords } from './provider.js';
import type { ErrorRecord, ExternalLoginRecord, LogoutRecord, RecordStore } from './records.js';
import type { UpstreamIdp } from './upstream.js';

/** The OpenID Connect provider at run time, as registerOidc (oidc/index.ts) gives it to the modules. */
export interface Oidc {
  /** the provider instance in use (replaced when the signing keys change) */
  provider(): Provider;
  issuer: string;
  Adapter: AdapterConstructor;
  errors: RecordStore<ErrorRecord>;
  logouts: RecordStore<LogoutRecord>;
  externalLogins: RecordStore<ExternalLoginRecord>;
  upstream: UpstreamIdp | null;
  /** The interaction URL the login page is given as ReturnUrl. */
  interactionUrl(uid: string): string;
  /** The uid of an interaction URL of this issuer (absolute or a path), else null. */
  interactionUid(url: string | null | undefined): string | null;
  /** Reload the signing keys now (after a rotation); rebuilds the provider if they changed (jobs.ts runs it every minute). */
  reloadKeys(): Promise<void>;
}

/** The provider built on the current signing keys, rebuilt by `reloadKeys` when they change. */
export interface KeyedProvider {
  provider: () => Provider;
  /** Answer a request with the provider in use. */
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  reloadKeys: () => Promise<void>;
}

/**
 * Make sure a signing key exists, build the provider on the keys, and keep the fingerprint of
 * those keys: `reloadKeys` rebuilds the provider only when the fingerprint changed (a rotation,
 * cli/rotate-keys.ts).
 */
export async function keyedProvider(
  services: Services,
  Adapter: AdapterConstructor,
  records: ProviderRecords,
  loginPolicy: LoginPolicy,
): Promise<KeyedProvider> {
  const { db, config } = services;
  const algs = config.OIDC_SIGNING_ALGS;
  const build = async () =>
    createProvider(services, await loadSigningKeys(db, services.secrets.keyEncryption, algs), Adapter, records, loginPolicy);

  await ensureSigningKey(db, services.secrets.keyEncryption, algs);
  let fingerprint = await signingKeyFingerprint(db, algs);
  let provider = await build();
  let callback = provider.callback() as (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  return {
    provider: () => provider,
    handle: (req, res) => callback(req, res),
    reloadKeys: async () => {
      const next = await signingKeyFingerprint(db, algs);
      if (next === fingerprint) return;
      provider = await build();
      callback = provider.callback();
      fingerprint = next;
      services.log.info('signing keys changed; provider reloaded');
    },
  };
}
