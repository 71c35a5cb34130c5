import { randomInt, timingSafeEqual } from 'node:crypto';
import { emptyRights, type SetupCapability, type SetupLinkInfo } from '@partner-portal/contracts';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import { setupLinkActor } from '../../http/actor.js';
import { AppError } from '../../http/problem.js';
import { Guess, type CounterStore } from '../../http/rate-limit.js';
import { hashSecret, newSecret } from '../../http/session.js';
import { recordChange } from '../webhooks/changes.js';
import type { Mailer } from '../mail/mailer.js';
import { setupCodeEmail } from './messages.js';
import * as q from './queries.js';

/**
 * Opening a setup link (the operating contract, "Setup links for a dealer's IT person"): the page
 * at $PUBLIC_URL/setup/{token} reads what the link is (unknown, expired and revoked links answer
 * one 404 unknown_setup_link), asks for a one-time code e-mailed to the link's address (8 digits,
 * 10 minutes, at most five wrong answers), and trades the code for the setup session's cookie.
 * Sending codes and guessing them are limited by the one counting rule of guesses (http/rate-limit.ts
 * Guess): per link and per client address, 429 past a limit.
 */

/** How long a code works. */
const CODE_MINUTES = 10;
/** Wrong answers a code takes before it ends (a new one must be asked for). */
const CODE_WRONG_ANSWERS = 5;
/** Codes one link may ask for in a window of the login limits. */
const CODES_PER_LINK = 5;
/** How long a setup session lasts (never past the link's expiry). */
export const SETUP_SESSION_HOURS = 8;

/** The address as the page shows it: its first letter and its domain (j***@dealer.example). */
export function maskedEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  return `${email[0]}***${email.slice(at)}`;
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export class SetupLinkOpening {
  constructor(private readonly deps: { db: Database; config: Config; mailer: Mailer; counters: CounterStore }) {}

  private async live(token: string): Promise<q.LiveLinkRow> {
    const row = token.length <= 100 ? await q.findLiveLinkByToken(this.deps.db, hashSecret(token)) : null;
    if (!row) throw new AppError('unknown_setup_link');
    return row;
  }

  /** GET /api/setup/{token}: what the link is; `sessionSecret`: the setup cookie the browser sent, if any. */
  async info(token: string, sessionSecret: string | undefined): Promise<SetupLinkInfo> {
    const row = await this.live(token);
    const signedIn = Boolean(
      sessionSecret && row.session_hash && sessionSecret.length <= 100 && sameHash(hashSecret(sessionSecret), row.session_hash),
    );
    return {
      organization_id: row.organization_id,
      organization_name: row.organization_name,
      capabilities: row.capabilities as SetupCapability[],
      state: row.opened_at ? 'opened' : 'pending',
      email: maskedEmail(row.email),
      expires_at: new Date(row.expires_at).toISOString(),
      signed_in: signedIn,
    };
  }

  /** POST /api/setup/{token}/code: a new one-time code to the link's address (the previous one ends). */
  async sendCode(token: string, ip: string): Promise<void> {
    const { db, config, mailer, counters } = this.deps;
    const row = await this.live(token);
    await Guess.take(
      counters,
      [
        { key: `setup-code:link:${row.id}`, max: CODES_PER_LINK },
        { key: `setup-code:ip:${ip}`, max: config.LOGIN_RATE_LIMIT_PER_IP },
      ],
      config.LOGIN_RATE_LIMIT_WINDOW_SECONDS * 1000,
    );
    const code = String(randomInt(0, 100_000_000)).padStart(8, '0');
    await db.transaction(async (tx) => {
      const locked = await q.findLiveLinkByToken(tx, hashSecret(token), { forUpdate: true });
      if (!locked) throw new AppError('unknown_setup_link');
      await q.setCode(tx, locked.id, hashSecret(code), CODE_MINUTES);
      const message = setupCodeEmail({ language: locked.language_code, organizationName: locked.organization_name, code });
      await mailer.enqueue({ ...message, to: locked.email, kind: 'setup-link-code' }, { tx });
    });
  }

  /**
   * POST /api/setup/{token}/session: the code, a guess (429 past the limits); right, it is spent,
   * the link is opened and its session starts (the secret of the cookie is answered); wrong, 400
   * invalid_code.
   */
  async openSession(token: string, code: string, ip: string, requestId: string): Promise<string> {
    const { db, config, counters } = this.deps;
    const row = await this.live(token);
    const guess = await Guess.take(
      counters,
      [
        { key: `setup-guess:link:${row.id}`, max: config.LOGIN_RATE_LIMIT_PER_ACCOUNT },
        { key: `setup-guess:ip:${ip}`, max: config.LOGIN_RATE_LIMIT_PER_IP },
      ],
      config.LOGIN_RATE_LIMIT_WINDOW_SECONDS * 1000,
    );
    const secret = newSecret();
    const opened = await db.transaction(async (tx) => {
      const locked = await q.findLiveLinkByToken(tx, hashSecret(token), { forUpdate: true });
      if (!locked) throw new AppError('unknown_setup_link');
      const live = locked.code_hash !== null && locked.code_expires_at !== null && new Date(locked.code_expires_at).getTime() > Date.now();
      if (!live || !sameHash(hashSecret(code), locked.code_hash!)) {
        if (live) await q.countWrongCode(tx, locked.id, CODE_WRONG_ANSWERS);
        return false;
      }
      await q.openSession(tx, locked.id, hashSecret(secret), SETUP_SESSION_HOURS);
      // the audit names the link and its address (it acts with nothing yet)
      const actor = setupLinkActor(
        {
          id: locked.id,
          email: locked.email,
          organizationId: locked.organization_id,
          organizationPath: locked.organization_path,
          organizationName: locked.organization_name,
          capabilities: locked.capabilities,
          makerId: locked.created_by ?? '',
          isProviderOrganization: false,
          rights: emptyRights(),
          userManager: false,
          organizationManager: false,
          isDeveloper: false,
        },
        requestId,
      );
      await recordChange(tx, actor, {
        organizationId: locked.organization_id,
        organizationPath: locked.organization_path,
        action: 'setup_link.open',
        targetType: 'setup_link',
        targetId: locked.id,
        after: { state: 'opened' },
      });
      return true;
    });
    if (!opened) throw new AppError('invalid_code');
    await guess.giveBack();
    return secret;
  }
}
