import { createHash, generateKeyPairSync, randomBytes, randomInt, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashSecret } from '../../src/http/session.js';
import { insertPasskey } from '../../src/modules/factors/passkey-queries.js';
import { enrolTotp, passwordSteps, totpCode } from '../factors/support.js';
import { createUser, mailedResetLink, resetPassword, type TestUser } from '../identity/support.js';
import type { HttpClient, HttpResponse } from '../support/http.js';
import { startPortal, type TestPortal } from '../support/portal.js';
import { expectRoutes } from './support/routes.js';

/**
 * Guesses fired all at once (docs/security.md, "Limits and thresholds"): every guess — a code of
 * the app, a recovery code, a passkey, a password, a reset code — takes its count before it is
 * checked, so a burst of concurrent guesses is checked at most as often as the limit allows, and
 * the right answer sent in the burst beyond the limit is refused (429) unchecked.
 *
 * Each burst is BURST wrong guesses sent with Promise.all, and the right one sent into the burst
 * once the limit is used up (allAtOnce). What was
 * checked is counted from the outside: every answer other than 429 (and, for second factors, the
 * metric partner_portal_second_factor_checks_total). LOGIN_RATE_LIMIT_PER_ACCOUNT keeps its
 * default (10); the per-address limit is lifted so that the tests of this file, all from
 * 127.0.0.1, do not share one budget. On the embedded PGlite a request's statements run on the
 * server's own thread, so a burst interleaves less than on PostgreSQL (CI, .ci/run), where each
 * burst of a second factor or confirm-identity was checked in full before the one counting rule
 * (http/rate-limit.ts Guess); reset codes already took their count first, and are kept to it here.
 */
const BURST = 300;
const WRONG_PASSWORD = 'Wrong-Passw0rd!';
/** a burst is some 900 requests (connections opened, the burst, its preparation) on a shared machine */
vi.setConfig({ testTimeout: 60_000 });

let portal: TestPortal;
let limit: number;

beforeAll(async () => {
  // WebAuthn needs a domain name as the relying party: 'localhost'
  portal = await startPortal({ LOGIN_RATE_LIMIT_PER_IP: '100000' }, { publicHost: 'localhost' });
  limit = portal.config.LOGIN_RATE_LIMIT_PER_ACCOUNT;
});
afterAll(() => portal?.close());

/** Checks of second factors so far (partner_portal_second_factor_checks_total, both outcomes). */
async function secondFactorChecks(): Promise<number> {
  const { values } = await portal.services.metrics.secondFactors.get();
  return values.reduce((sum, v) => sum + v.value, 0);
}

/**
 * Send the wrong guesses all at once, and the right one while they are in flight once the limit is
 * used up. Every refusal is the translated 429 with Retry-After; nothing is a 5xx; no more were
 * checked than the limit (answered other than 429, and for second factors counted by the metric
 * too); the right one is refused (429).
 */
async function allAtOnce(
  wrong: readonly (() => Promise<HttpResponse>)[],
  right: () => Promise<HttpResponse>,
  counted: { secondFactors: boolean },
): Promise<void> {
  expect(wrong.length).toBeGreaterThanOrEqual(BURST);
  const checksBefore = await secondFactorChecks();
  // a connection open for each request beforehand, so that the burst reaches the server at once
  await Promise.all([...wrong, right].map(() => portal.client().get('/health')));
  // The right one goes out while the burst is in flight, once the first refusal shows the limit
  // used up (wrong guesses keep theirs, so it stays used up), or once every wrong one has been
  // answered (no refusal at all: the right one is then checked, and the test fails as it should).
  // Sent at a random place in the burst instead, it may be one of the guesses the limit allows,
  // and rightly pass.
  let limitUsedUp!: () => void;
  const refused = new Promise<void>((resolve) => (limitUsedUp = resolve));
  const wrongAnswers = wrong.map((send) =>
    send().then((answer) => {
      if (answer.status === 429) limitUsedUp();
      return answer;
    }),
  );
  void Promise.all(wrongAnswers).then(limitUsedUp);
  const answers = await Promise.all([...wrongAnswers, refused.then(right)]);
  const statuses: Record<number, number> = {};
  for (const answer of answers) {
    statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
    expect(answer.status, answer.text).toBeLessThan(500);
    if (answer.status === 429) {
      expect(answer.body.i18NTranslationKey).toBe('too_many_requests');
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  }
  expect(answers.filter((a) => a.status !== 429).length, JSON.stringify(statuses)).toBeLessThanOrEqual(limit);
  if (counted.secondFactors) expect((await secondFactorChecks()) - checksBefore).toBeLessThanOrEqual(limit);
  const rightAnswer = answers.at(-1)!;
  expect(rightAnswer.status, rightAnswer.text).toBe(429);
}

/** BURST six-digit codes that the app of `secret` does not show around now. */
function wrongTotpCodes(secret: string): string[] {
  const valid = new Set([-2, -1, 0, 1, 2].map((steps) => totpCode(secret, steps)));
  const codes: string[] = [];
  while (codes.length < BURST) {
    const code = String(randomInt(1_000_000)).padStart(6, '0');
    if (!valid.has(code)) codes.push(code);
  }
  return codes;
}

/** BURST codes shaped like recovery codes (128 random bits in groups of five), none of them issued. */
function wrongRecoveryCodes(): string[] {
  return Array.from({ length: BURST }, () => randomBytes(16).toString('hex').toUpperCase().slice(0, 25).match(/.{5}/g)!.join('-'));
}

/** A user with an authenticator app: its secret and recovery codes. */
async function userWithTotp(): Promise<TestUser & { secret: string; recoveryCodes: string[] }> {
  const user = await createUser(portal);
  const client = portal.client();
  expect((await passwordSteps(client, user.email, user.password)).next_step ?? null).toBeNull();
  const { secret, recoveryCodes } = await enrolTotp(client);
  return { ...user, secret, recoveryCodes };
}

/** A user with an authenticator app, whose browser is at the second step of the sign-in; send(code) answers it there. */
async function atSecondStep() {
  const user = await userWithTotp();
  const client = portal.client();
  expect((await passwordSteps(client, user.email, user.password)).next_step).toBe('second_factor');
  return { user, client, send: (code: string) => () => client.post('/api/identity/second-factor', { code }) };
}

/** A signed-in browser of the user whose session last checked a password or factor an hour ago. */
async function staleSession(userId: string): Promise<{ client: HttpClient; authenticatedAt: () => Promise<string> }> {
  const client = await portal.sessionFor(userId);
  const idHash = hashSecret(client.cookies.get('pp_session')!);
  await portal.services.db.query("UPDATE sessions SET authenticated_at = now() - interval '1 hour' WHERE id_hash = $1", [idHash]);
  const authenticatedAt = async () => {
    const { rows } = await portal.services.db.query<{ at: string }>(
      'SELECT authenticated_at::text AS at FROM sessions WHERE id_hash = $1',
      [idHash],
    );
    return rows[0]!.at;
  };
  return { client, authenticatedAt };
}

describe('the second step of the sign-in', () => {
  it('checks no more codes of the app than the limit when 300 wrong ones and the right one come at once; the right one starts no session', async () => {
    expectRoutes(portal.app, 'POST /api/identity/second-factor');
    const { user, client, send } = await atSecondStep();

    await allAtOnce(wrongTotpCodes(user.secret).map(send), send(totpCode(user.secret, 1)), { secondFactors: true });

    expect(client.cookies.get('pp_session')).toBeUndefined();
    expect((await client.get('/api/identity/user-info')).status).toBe(401);
  });

  it('checks no more recovery codes than the limit when 300 wrong ones and a right one come at once; the right one stays unused', async () => {
    expectRoutes(portal.app, 'POST /api/identity/second-factor');
    const { user, client, send } = await atSecondStep();

    await allAtOnce(wrongRecoveryCodes().map(send), send(user.recoveryCodes[0]!), { secondFactors: true });

    expect(client.cookies.get('pp_session')).toBeUndefined();
    const { rows } = await portal.services.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM recovery_codes WHERE user_id = $1 AND used_at IS NULL',
      [user.id],
    );
    expect(rows[0]!.n).toBe(10);
  });
});

describe('confirming one’s identity again (POST /api/factors/confirm-identity)', () => {
  it('checks no more passwords than the limit when 300 wrong ones and the right one come at once from one session', async () => {
    expectRoutes(portal.app, 'POST /api/factors/confirm-identity');
    const user = await createUser(portal);
    const { client, authenticatedAt } = await staleSession(user.id);
    const before = await authenticatedAt();

    await allAtOnce(
      Array.from({ length: BURST }, (_, i) => () => client.post('/api/factors/confirm-identity', { password: `${WRONG_PASSWORD}${i}` })),
      () => client.post('/api/factors/confirm-identity', { password: user.password }),
      { secondFactors: false },
    );

    expect(await authenticatedAt()).toBe(before);
  });

  it('checks no more codes than the limit when 300 wrong ones and the right one come at once from one session', async () => {
    expectRoutes(portal.app, 'POST /api/factors/confirm-identity');
    const user = await userWithTotp();
    const { client, authenticatedAt } = await staleSession(user.id);
    const before = await authenticatedAt();

    await allAtOnce(
      wrongTotpCodes(user.secret).map((code) => () => client.post('/api/factors/confirm-identity', { code })),
      () => client.post('/api/factors/confirm-identity', { code: totpCode(user.secret, 1) }),
      { secondFactors: true },
    );

    expect(await authenticatedAt()).toBe(before);
  });
});

describe('confirming a new authenticator app', () => {
  it('checks no more codes than the limit when 300 wrong ones and the right one come at once; the app stays unconfirmed', async () => {
    expectRoutes(portal.app, 'POST /api/factors/totp', 'POST /api/factors/totp/confirm');
    const user = await createUser(portal);
    const client = await portal.sessionFor(user.id);
    const started = await client.post('/api/factors/totp');
    expect(started.status, started.text).toBe(200);
    const secret = started.body.secret as string;

    await allAtOnce(
      wrongTotpCodes(secret).map((code) => () => client.post('/api/factors/totp/confirm', { code })),
      () => client.post('/api/factors/totp/confirm', { code: totpCode(secret) }),
      { secondFactors: true },
    );

    expect((await client.get('/api/factors')).body.totp.enabled).toBe(false);
  });
});

/**
 * A passkey made in the test: an ES256 key pair (node:crypto), its public key in COSE form as a
 * registration stores it, and assertions as an authenticator with user verification signs them
 * (WebAuthn §6.3.3: authenticator data, then the signature over it and the hash of the client data).
 */
function softwarePasskey(origin: string) {
  const rpId = new URL(origin).hostname;
  const pair = () => generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { privateKey, publicKey } = pair();
  const jwk = publicKey.export({ format: 'jwk' });
  const cose = isoCBOR.encode(
    new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, new Uint8Array(Buffer.from(jwk.x!, 'base64url'))],
      [-3, new Uint8Array(Buffer.from(jwk.y!, 'base64url'))],
    ]),
  );
  const credentialId = randomBytes(16).toString('base64url');
  const assertion = (challenge: string, key: KeyObject) => {
    // the relying party's id hash, flags user present and verified, signature counter 0
    const authenticatorData = Buffer.concat([createHash('sha256').update(rpId).digest(), Buffer.from([0x05]), Buffer.alloc(4)]);
    const clientDataJSON = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge, origin, crossOrigin: false }));
    const signature = sign('sha256', Buffer.concat([authenticatorData, createHash('sha256').update(clientDataJSON).digest()]), key);
    return {
      id: credentialId,
      rawId: credentialId,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: {
        authenticatorData: authenticatorData.toString('base64url'),
        clientDataJSON: clientDataJSON.toString('base64url'),
        signature: signature.toString('base64url'),
      },
    };
  };
  const otherKey = pair().privateKey;
  return {
    credentialId,
    publicKey: cose,
    /** the passkey's answer to a challenge */
    sign: (challenge: string) => assertion(challenge, privateKey),
    /** an answer for the same passkey signed with another key: what a guess at it looks like */
    forge: (challenge: string) => assertion(challenge, otherKey),
  };
}

describe('signing in with a passkey', () => {
  it('checks no more assertions than the limit when 300 forged ones and the right one come at once; the right one starts no session', async () => {
    expectRoutes(portal.app, 'POST /api/identity/passkey-options', 'POST /api/identity/passkey-login');
    const user = await createUser(portal);
    const passkey = softwarePasskey(portal.url);
    await insertPasskey(portal.services.db, {
      userId: user.id,
      credentialId: passkey.credentialId,
      publicKey: passkey.publicKey,
      counter: 0,
      transports: ['internal'],
      deviceType: 'singleDevice',
      backedUp: false,
      name: 'Laptop',
    });
    // the passkey itself signs in (outside the burst, so that the burst's answers are known to be checkable)
    const signIn = async (answer: (challenge: string) => unknown) => {
      const client = portal.client();
      const options = await client.post('/api/identity/passkey-options');
      expect(options.status, options.text).toBe(200);
      const response = answer(options.body.challenge as string);
      return { client, send: () => client.post('/api/identity/passkey-login', { response }) };
    };
    const works = await signIn(passkey.sign);
    expect((await works.send()).status).toBe(200);
    expect(works.client.cookies.get('pp_session')).toBeTruthy();

    // each attempt needs its own challenge: one browser each
    const forged = await Promise.all(Array.from({ length: BURST }, () => signIn(passkey.forge)));
    const genuine = await signIn(passkey.sign);
    await allAtOnce(
      forged.map((f) => f.send),
      genuine.send,
      { secondFactors: true },
    );

    expect(genuine.client.cookies.get('pp_session')).toBeUndefined();
  });
});

describe('resetting a password', () => {
  it('tries no more reset codes than the limit when 300 wrong ones and the right one come at once; the password stays', async () => {
    expectRoutes(portal.app, 'POST /api/identity/forgot-password', 'PUT /api/identity/reset-password');
    const user = await createUser(portal);
    const { code } = await mailedResetLink(portal, user.email);
    const newPassword = 'Fresh-Horse-Battery-9';
    const reset = (token: string) => () => resetPassword(portal, user.id, token, newPassword);

    await allAtOnce(
      Array.from({ length: BURST }, () => reset(randomBytes(32).toString('base64url'))),
      reset(code),
      { secondFactors: false },
    );

    const { rows } = await portal.services.db.query<{ live: number }>(
      `SELECT count(*)::int AS live FROM single_use_tokens WHERE user_id = $1 AND used_at IS NULL AND expires_at > now()`,
      [user.id],
    );
    expect(rows[0]!.live).toBe(1);
  });
});
