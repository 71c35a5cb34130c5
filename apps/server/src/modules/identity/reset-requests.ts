import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import type { Database, Queryable } from '../../db/client.js';
import { enqueue, OUTBOX_CHANNEL, recordSharedOutcomes, sharedTable, type SharedRow } from '../../outbox/queries.js';
import { startLane, type OutboxKind, type OutboxLane } from '../../outbox/worker.js';
import { MAIL_SCHEDULE } from '../mail/schedule.js';

/**
 * A forgotten password asked for (POST /api/identity/forgot-password), as a row of the shared
 * outbox (outbox/queries.ts), written in the request whatever the address: the request does
 * the same work for an address with an account and one without (its time tells nothing), and a
 * crash after the answer loses no reset. The outbox's worker then hands it to `send`
 * (account.ts sendResetEmail: the lookup and, for an account with a password here, the reset token
 * and its e-mail in one transaction; the e-mail leaves through the mail lane). Payload: the address
 * as typed.
 */
export const PASSWORD_RESET_REQUEST = 'password_reset_request';

export interface PasswordResetRequest {
  email: string;
}

/** Write the request, in the caller's transaction or on its own. */
export function enqueuePasswordResetRequest(db: Queryable, email: string): Promise<void> {
  return enqueue(db, PASSWORD_RESET_REQUEST, [{ email } satisfies PasswordResetRequest]);
}

/** The kind: a request is done once its token and e-mail are written (or the address has no password here). */
export function passwordResetRequestKind(
  config: Pick<Config, 'MAIL_RETRY_BASE_SECONDS'>,
  send: (email: string) => Promise<void>,
): OutboxKind<SharedRow<PasswordResetRequest>> {
  return {
    name: 'password reset request',
    table: sharedTable(PASSWORD_RESET_REQUEST),
    channel: OUTBOX_CHANNEL,
    // the portal's own database is the receiver: tried again like an e-mail
    schedule: MAIL_SCHEDULE,
    retryBaseSeconds: config.MAIL_RETRY_BASE_SECONDS,
    failureLevel: 'error',
    record: recordSharedOutcomes,
    async deliver({ payload }) {
      await send(payload.email);
      return { result: 'delivered' };
    },
  };
}

/** Start the sender of password reset requests (jobs.ts; the test kit's portal). */
export function startPasswordResetRequests(
  deps: { db: Database; log: Logger; config: Pick<Config, 'MAIL_RETRY_BASE_SECONDS'> },
  send: (email: string) => Promise<void>,
): Promise<OutboxLane<SharedRow<PasswordResetRequest>>> {
  return startLane(deps, passwordResetRequestKind(deps.config, send), { runners: 1, batchSize: 20 });
}
