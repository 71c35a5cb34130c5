import type { FastifyInstance } from 'fastify';
import type Provider from 'oidc-provider';
import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';
import {
  deviceCodeBodySchema,
  deviceDecisionBodySchema,
  deviceDecisionResponseSchema,
  deviceRequestSchema,
  type DeviceDecision,
  type DeviceRequest,
  type DeviceResult,
} from '@partner-portal/contracts';
import type { Config } from '../config.js';
import { escapeHtml } from '../http/html.js';
import { AppError } from '../http/problem.js';
import { Guess, type CounterStore, type GuessLimit } from '../http/rate-limit.js';
import { documented } from '../http/route-kit.js';
import type { RecordStore } from './records.js';

/**
 * Device sign-in (RFC 8628; docs/api.md, "Devices and modern clients"). oidc-provider's deviceFlow
 * does the protocol: POST /connect/device/auth gives the device its codes, the device polls
 * /connect/token, and the provider's code verification endpoint (/connect/device) takes the user
 * code, runs the authorization (the login and consent interactions, with the interaction policy of
 * every sign-in: oidc/interaction.ts) and records the outcome on the device code.
 *
 * The person sees the web app's page /device (the device is told `$PUBLIC_URL/device`): after the
 * portal's own sign-in it takes the user code (POST /api/device/lookup names the application that
 * asks) and the decision (POST /api/device/decision keeps it as a DeviceDecision record bound to
 * the person and answers where the browser goes next). The provider's user-code steps below only
 * hand over between the two: the input step, opened with the decision record, posts the decision
 * to the provider with its xsrf secret (the same hand-over as the logout's, logout-pages.ts); every
 * other step and every outcome sends the browser back to /device (?result=…).
 *
 * Every user code tried counts as a guess (http/rate-limit.ts Guess) per client address and per
 * signed-in person, at the API and at the provider's endpoint alike: a wrong code keeps its guess,
 * past the limit the answer is 429 with Retry-After (docs/security.md).
 */

/** The web app's verification page. */
export const DEVICE_PAGE = '/device';

/** A person's decision on a device sign-in, waiting for the provider's input step to post it (a few minutes). */
export interface DeviceDecisionRecord {
  userId: string;
  /** the user code, normalized */
  userCode: string;
  decision: DeviceDecision;
}

/** The provider's user code as stored: upper case, letters and digits only (oidc-provider's own rule, lib/helpers/user_codes.js). */
export function normalizeUserCode(input: string): string {
  return input.toUpperCase().replace(/\W/g, '');
}

/** The user code as the device shows it (the provider's default mask, ****-****). */
function displayUserCode(normalized: string): string {
  return normalized.length === 8 ? `${normalized.slice(0, 4)}-${normalized.slice(4)}` : normalized;
}

/** The limits of user-code guesses: per client address and, when someone is signed in, per person. */
function guessLimits(config: Config, ip: string, userId: string | null): GuessLimit[] {
  const limits: GuessLimit[] = [{ key: `device-code:ip:${ip}`, max: config.LOGIN_RATE_LIMIT_PER_IP }];
  if (userId) limits.push({ key: `device-code:account:${userId}`, max: config.LOGIN_RATE_LIMIT_PER_ACCOUNT });
  return limits;
}

function takeGuess(deps: { config: Config; counters: CounterStore }, ip: string, userId: string | null): Promise<Guess> {
  return Guess.take(deps.counters, guessLimits(deps.config, ip, userId), deps.config.LOGIN_RATE_LIMIT_WINDOW_SECONDS * 1000);
}

/** What the provider's steps hand back to the page (/device?result=…), by oidc-provider's error of the step. */
function resultOf(err: Error | undefined): DeviceResult {
  switch (err?.name) {
    case 'NotFoundError':
    case 'NoCodeError':
    case 'ExpiredError':
      return 'unknown';
    case 'AlreadyUsedError':
      return 'used';
    case 'AbortedError':
      return 'denied';
    default:
      return 'failed';
  }
}

/** Marks a provider request whose user code named no device code: its guess is kept. */
const WRONG_CODE = 'portalWrongUserCode';

function redirect(ctx: KoaContextWithOIDC, location: string): void {
  ctx.type = 'text/plain';
  ctx.status = 303;
  ctx.redirect(location);
}

/** The provider's features.deviceFlow: the user-code steps hand over to the web page (see above). */
export function deviceFlowFeature(
  publicUrl: string,
  decisions: RecordStore<DeviceDecisionRecord>,
  portalUserId: (ctx: KoaContextWithOIDC) => Promise<string | null>,
): NonNullable<NonNullable<Configuration['features']>['deviceFlow']> {
  const page = `${publicUrl}${DEVICE_PAGE}`;
  return {
    enabled: true,
    charset: 'base-20',
    mask: '****-****',
    async userCodeInputSource(ctx, _form, _out, err) {
      if (err) {
        if (err.name === 'NotFoundError' || err.name === 'NoCodeError') ctx.state[WRONG_CODE] = true;
        return redirect(ctx, `${page}?result=${resultOf(err)}`);
      }
      const decisionId = typeof ctx.query.decision === 'string' ? ctx.query.decision : null;
      const record = decisionId ? await decisions.find(decisionId) : undefined;
      if (!decisionId || !record) return redirect(ctx, page);
      await decisions.destroy(decisionId);
      // the decision was made by the person signed in in this browser, and by nobody else
      if (record.userId !== (await portalUserId(ctx))) return redirect(ctx, page);
      const secret = (ctx.oidc.session?.state as { secret?: string } | undefined)?.secret ?? '';
      const action = ctx.oidc.urlFor('code_verification');
      const choice = record.decision === 'allow' ? 'confirm' : 'abort';
      ctx.type = 'text/html; charset=utf-8';
      ctx.set('cache-control', 'no-store');
      ctx.body = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Device sign-in</title><script src="/connect/logout/submit.js"></script></head>
<body><form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="xsrf" value="${escapeHtml(secret)}"/><input type="hidden" name="user_code" value="${escapeHtml(record.userCode)}"/><input type="hidden" name="${choice}" value="yes"/>
<noscript><button type="submit" autofocus>Continue</button></noscript></form></body></html>`;
    },
    // the provider's own confirmation (verification_uri_complete opened at the provider): the page asks instead
    async userCodeConfirmSource(ctx, _form, _client, _deviceInfo, userCode) {
      redirect(ctx, `${page}?user_code=${encodeURIComponent(userCode)}`);
    },
    async successSource(ctx) {
      redirect(ctx, `${page}?result=allowed`);
    },
  };
}

/**
 * The provider's device endpoints as the portal serves them: the device is told the web page as
 * its verification_uri, and every user code posted to the provider's code verification endpoint
 * is a guess (see above).
 */
export function adaptDeviceEndpoints(
  provider: Provider,
  deps: { config: Config; counters: CounterStore; publicUrl: string },
  routes: { device_authorization: string; code_verification: string },
  portalUserId: (ctx: KoaContextWithOIDC) => Promise<string | null>,
): void {
  const page = `${deps.publicUrl}${DEVICE_PAGE}`;
  provider.use(async (ctx, next) => {
    if (ctx.method === 'POST' && ctx.path === routes.device_authorization) {
      await next();
      const body = ctx.body as { verification_uri?: string; user_code?: string } | undefined;
      if (ctx.status === 200 && body?.verification_uri && body.user_code) {
        ctx.body = {
          ...body,
          verification_uri: page,
          verification_uri_complete: `${page}?user_code=${encodeURIComponent(body.user_code)}`,
        };
      }
      return;
    }
    if (ctx.method === 'GET' && ctx.path === routes.device_authorization) {
      // the device authorization endpoint takes POST only; oidc-provider would take a GET of it for
      // a resumed device sign-in (code_verification/:uid) with the uid "auth" (see below)
      ctx.status = 405;
      ctx.set('Allow', 'POST, OPTIONS');
      ctx.body = { error: 'invalid_request', error_description: 'the device authorization endpoint takes POST' };
      return;
    }
    if (ctx.method === 'GET' && ctx.path.startsWith(`${routes.code_verification}/`)) {
      // a resumed device sign-in (code_verification/:uid) whose interaction is unknown: oidc-provider
      // answers it by the input step (to the page, above), then tries to save the browser's session
      // that was never saved and throws a TypeError; the answer made stands
      try {
        await next();
      } catch (err) {
        if (!(err instanceof TypeError) || !err.message.startsWith('persist can only be called')) throw err;
        if (ctx.status < 300 || ctx.status >= 400) redirect(ctx as KoaContextWithOIDC, `${page}?result=unknown`);
      }
      return;
    }
    if (ctx.method !== 'POST' || ctx.path !== routes.code_verification) {
      await next();
      return;
    }
    let guess: Guess;
    try {
      guess = await takeGuess(deps, ctx.ip, await portalUserId(ctx as KoaContextWithOIDC));
    } catch (err) {
      if (!(err instanceof AppError) || err.status !== 429) throw err;
      ctx.status = 429;
      for (const [name, value] of Object.entries(err.headers ?? {})) ctx.set(name, value);
      ctx.type = 'text/plain';
      ctx.body = 'Too many requests, try again later';
      return;
    }
    try {
      await next();
    } finally {
      if (!ctx.state[WRONG_CODE]) await guess.giveBack();
    }
  });
}

type Lookup = { kind: 'pending'; request: DeviceRequest; userCode: string } | { kind: 'unknown' } | { kind: 'used' };

/** The device code of a user code, as the page shows it. */
async function lookUp(provider: Provider, input: string): Promise<Lookup> {
  const userCode = normalizeUserCode(input);
  if (!userCode) return { kind: 'unknown' };
  const code = await provider.DeviceCode.findByUserCode(userCode);
  if (!code || code.isExpired) return { kind: 'unknown' };
  if (code.error || code.accountId || code.inFlight) return { kind: 'used' };
  const client = code.clientId ? await provider.Client.find(code.clientId) : undefined;
  if (!client) return { kind: 'unknown' };
  const scope = typeof code.params?.scope === 'string' ? code.params.scope : '';
  return {
    kind: 'pending',
    userCode,
    request: {
      user_code: displayUserCode(userCode),
      client: {
        client_id: client.clientId,
        client_name: client.clientName ?? client.clientId,
        logo_uri: client.logoUri ?? null,
        client_uri: client.clientUri ?? null,
      },
      scopes: scope.split(' ').filter(Boolean),
    },
  };
}

/** The verification page's calls (see above). */
export function registerDeviceRoutes(
  app: FastifyInstance,
  provider: () => Provider,
  decisions: RecordStore<DeviceDecisionRecord>,
  codeVerificationPath: string,
): void {
  const { sessions, config, counters } = app.services;
  const tags = ['identity'];

  /** The pending device sign-in of a user code, as a guess of the signed-in person: a wrong code keeps it. */
  async function pending(ip: string, userId: string, input: string): Promise<{ request: DeviceRequest; userCode: string }> {
    const guess = await takeGuess({ config, counters }, ip, userId);
    const found = await lookUp(provider(), input);
    if (found.kind === 'unknown') throw new AppError('device_code_unknown');
    await guess.giveBack();
    if (found.kind === 'used') throw new AppError('device_code_used');
    return found;
  }

  app.post(
    '/api/device/lookup',
    documented(
      {
        tags,
        summary: 'The application that asks to sign in on a device, by the user code the device shows (device sign-in, RFC 8628)',
        description:
          'For the signed-in person. Every code tried counts against the limits of guesses per client address and per person; a wrong one is kept (429 with Retry-After past the limit).',
        body: deviceCodeBodySchema,
        response: { 200: deviceRequestSchema },
      },
      [400, 401, 403, 409, 429],
    ),
    async (request, reply) => {
      const user = await sessions.require(request);
      const { user_code } = deviceCodeBodySchema.parse(request.body);
      const found = await pending(request.ip, user.id, user_code);
      return reply.header('cache-control', 'no-store').send(found.request);
    },
  );

  app.post(
    '/api/device/decision',
    documented(
      {
        tags,
        summary: 'Allow or deny a device sign-in: answers the provider page the browser goes to next, which completes it',
        description:
          'The decision is kept for the signed-in person for five minutes; the provider page named by continue_url posts it with the provider’s own anti-forgery secret. Allowing runs the sign-in’s interaction policy (second factor included).',
        body: deviceDecisionBodySchema,
        response: { 200: deviceDecisionResponseSchema },
      },
      [400, 401, 403, 409, 429],
    ),
    async (request, reply) => {
      const user = await sessions.require(request);
      const { user_code, decision } = deviceDecisionBodySchema.parse(request.body);
      const found = await pending(request.ip, user.id, user_code);
      const id = await decisions.create({ userId: user.id, userCode: found.userCode, decision });
      return reply.header('cache-control', 'no-store').send({ continue_url: `${codeVerificationPath}?decision=${encodeURIComponent(id)}` });
    },
  );
}
