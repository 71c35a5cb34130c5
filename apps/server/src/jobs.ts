import type { ModuleServices } from './module-services.js';
import { sweepExpiredIdentityRows } from './modules/identity/queries.js';
import { sweepTreeChanges } from './modules/organizations/queries.js';
import { TREE_CACHE_MAX_AGE_MS } from './modules/organizations/tree-cache.js';
import type { Oidc } from './oidc/runtime.js';
import type { Services } from './services.js';

/**
 * The background jobs of a running server, started by main.ts after the app is built and stopped
 * on shutdown (routes and plugins start no timers):
 * - signing key reload every minute (a rotation takes effect without a restart, cli/rotate-keys.ts);
 * - clean-up of expired provider rows and sessions every ten minutes, and once at start;
 * - clean-up of the organization tree's change log (no cached tree lives longer than TREE_CACHE_MAX_AGE_MS);
 * - every hour, the re-verification of verified domains last looked at DOMAIN_RECHECK_HOURS ago
 *   (modules/domains/recheck.ts; instances share the domains).
 */
const KEY_RELOAD_MS = 60_000;
const IDENTITY_CLEANUP_MS = 10 * 60_000;
const DOMAIN_RECHECK_MS = 60 * 60_000;

export interface Jobs {
  stop(): void;
}

export function startJobs(services: Services, oidc: Oidc, modules: Pick<ModuleServices, 'domainRecheck'>): Jobs {
  const { db, log } = services;
  const every = (ms: number, name: string, job: () => Promise<void>) => {
    const timer = setInterval(() => void job().catch((err: unknown) => log.warn({ err }, `${name} failed`)), ms);
    timer.unref();
    return timer;
  };
  const sweepIdentity = () => sweepExpiredIdentityRows(db);
  const timers = [
    every(KEY_RELOAD_MS, 'signing key reload', () => oidc.reloadKeys()),
    every(IDENTITY_CLEANUP_MS, 'identity clean-up', sweepIdentity),
    every(TREE_CACHE_MAX_AGE_MS, 'tree change clean-up', () => sweepTreeChanges(db)),
    every(DOMAIN_RECHECK_MS, 'domain re-verification', async () => {
      const round = await modules.domainRecheck.recheckDue();
      if (round.kept + round.lost + round.unanswered > 0) log.info(round, 'domain re-verification');
    }),
  ];
  void sweepIdentity().catch((err: unknown) => log.warn({ err }, 'identity clean-up failed'));
  return {
    stop() {
      for (const t of timers) clearInterval(t);
    },
  };
}
