import { expect } from 'vitest';
import type { LoginRequest } from '@partner-portal/contracts';
import { hashPassword } from '../../src/password-hashing.js';
import type { HttpClient, HttpResponse } from './http.js';
import type { TestPortal } from './portal.js';

/**
 * Signing in with a password over HTTP, for every test that needs the real login rather than a
 * session made directly (TestPortal.sessionFor): the login's throttles, the last sign-in, the
 * session's browser and address, the device cookie.
 */
export interface LoginOptions {
  /** the browser's User-Agent (the session list shows it) */
  userAgent?: string;
  /** the caller's address, sent as X-Forwarded-For (counted only with TRUST_PROXY) */
  address?: string;
  headers?: Record<string, string>;
}

/** The login's fields: a user (TestUser, ActorRef with a password…) gives its e-mail address and password, nothing else. */
export type Credentials = Pick<LoginRequest, 'email' | 'password'> & Partial<Pick<LoginRequest, 'remember' | 'return_url' | 'return_path'>>;

/** POST /api/identity/login: the answer, whatever it is. */
export function login(client: HttpClient, credentials: Credentials, options: LoginOptions = {}): Promise<HttpResponse> {
  const { email, password, remember, return_url, return_path } = credentials;
  const headers: Record<string, string> = { ...options.headers };
  if (options.userAgent) headers['user-agent'] = options.userAgent;
  if (options.address) headers['x-forwarded-for'] = options.address;
  return client.post('/api/identity/login', { email, password, remember, return_url, return_path }, { headers });
}

/** The client, signed in through the login; fails the test unless the login opened a session at once (no second step). */
export async function signIn(client: HttpClient, credentials: Credentials, options: LoginOptions = {}): Promise<HttpClient> {
  const res = await login(client, credentials, options);
  expect(res.status, res.text).toBe(200);
  expect(res.body.error ?? null, res.text).toBeNull();
  expect(res.body.next_step ?? null, 'a second step is asked for').toBeNull();
  return client;
}

/** Give a user a password (users made directly in the database, e.g. fixture members, have none). */
export async function setPassword(portal: TestPortal, userId: string, password: string): Promise<void> {
  await portal.services.db.query('UPDATE users SET password_hash = $2 WHERE id = $1', [userId, await hashPassword(password)]);
}
