import type { ModuleServices } from './module-services.js';
import { sweepExpiredIdentityRows } from './modules/identity/queries.js';
import { startPasswordResetRequests } from './modules/identity/reset-requests.js';
import { expireInvitations } from './modules/invitations/expiry.js';
import { startMailWorker } from './modules/mail/outbox-worker.js';
import { sweepTreeChanges } from './modules/organizations/queries.js';
import { TREE_CACHE_MAX_AGE_MS } from './modules/organizations/tree-cache.js';
import { startWebhookWorker } from './modules/webhooks/worker.js';
import { sweepOrphanRows } from './modules/audit-streams/queries.js';
import { startAuditStreamWorker } from './modules/audit-streams/worker.js';
import { startBackchannelLogoutWorker } from './oidc/backchannel.js';
import { sweepFinishedOutbox } from './outbox/queries.js';
import type { Oidc } from './oidc/runtime.js';
import type { Services } from './services.js';

/**
 * The background jobs of a running server, started by main.ts after the app is built and stopped
 * on shutdown (routes and plugins start no timers):
 * - signing key reload every minute (a rotation takes effect without a restart, cli/rotate-keys.ts);
 * - clean-up of expired provider rows and sessions every ten minutes, and once at start;
 * - clean-up of the organization tree's change log (no cached tree lives longer than TREE_CACHE_MAX_AGE_MS);
 * - every hour, the re-verification of verified domains last looked at DOMAIN_RECHECK_HOURS ago
 *   (modules/domains/recheck.ts; instances share the domains);
 * - every minute, invitations past their expiry marked EXPIRED (their invitation.expired events);
 * - the outbox's worker (outbox/worker.ts) on the one outbox table, a lane per kind, each taking
 *   its kind's rows (sharedTable(kind, keyField) of outbox/queries.ts, or the kind's own
 *   OutboxTable): e-mails (modules/mail/outbox-worker.ts), webhook deliveries
 *   (modules/webhooks/worker.ts), back-channel logouts (oidc/backchannel.ts), password reset
 *   requests (modules/identity/reset-requests.ts) and audit streams (modules/audit-streams/worker.ts,
 *   a stream's entries in order, never given up), each sent after the commit of its change and
 *   again when its receiver did not take it; every hour the clean-up of the finished rows older
 *   than WEBHOOK_RETENTION_DAYS (webhook deliveries with their attempts, logouts…; not e-mails),
 *   and of the pending rows of audit streams that no longer exist.
 */
const KEY_RELOAD_MS = 60_000;
const IDENTITY_CLEANUP_MS = 10 * 60_000;
const DOMAIN_RECHECK_MS = 60 * 60_000;
const INVITATION_EXPIRY_MS = 60_000;
const DELIVERY_CLEANUP_MS = 60 * 60_000;

export interface Jobs {
  /** Stop the timers and the outbox's lanes (what they are sending finishes first). */
  stop(): Promise<void>;
}

export async function startJobs(
  services: Services,
  oidc: Oidc,
  modules: Pick<ModuleServices, 'domainRecheck' | 'accounts'>,
): Promise<Jobs> {
  const { db, log, config } = services;
  const every = (ms: number, name: string, job: () => Promise<unknown>) => {
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
    every(INVITATION_EXPIRY_MS, 'invitation expiry', () => expireInvitations(db)),
    every(DELIVERY_CLEANUP_MS, 'outbox clean-up', () => sweepFinishedOutbox(db, config.WEBHOOK_RETENTION_DAYS)),
    every(DELIVERY_CLEANUP_MS, 'audit stream clean-up', () => sweepOrphanRows(db)),
  ];
  void sweepIdentity().catch((err: unknown) => log.warn({ err }, 'identity clean-up failed'));
  const webhooks = await startWebhookWorker({ db, config, log, keyEncryption: services.secrets.keyEncryption });
  const mail = await startMailWorker({ db, config, log, keyEncryption: services.secrets.keyEncryption });
  const logouts = await startBackchannelLogoutWorker({ db, config, log, provider: () => oidc.provider() });
  const auditStreams = await startAuditStreamWorker({ db, config, log, keyEncryption: services.secrets.keyEncryption });
  const resets = await startPasswordResetRequests({ db, config, log }, (email) => modules.accounts.sendResetEmail(email));
  return {
    async stop() {
      for (const t of timers) clearInterval(t);
      await Promise.all([webhooks.stop(), mail.stop(), logouts.stop(), auditStreams.stop(), resets.stop()]);
    },
  };
}
