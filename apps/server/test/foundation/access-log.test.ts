import { afterAll, describe, expect, it } from 'vitest';
import { startPortal, type TestPortal } from '../support/portal.js';

/**
 * The access log (http/access-log.ts): at the default LOG_LEVEL, one line per answered request,
 * with the request id, method, path, status and response time, and nothing of the request's
 * headers or query string.
 */
const portals: TestPortal[] = [];
afterAll(async () => {
  for (const p of portals) await p.close();
});

type Line = Record<string, unknown>;

/** A portal whose log lines are collected, parsed, in `lines`. */
async function portalWithLog(env: Record<string, string>): Promise<{ portal: TestPortal; lines: Line[] }> {
  const lines: Line[] = [];
  const portal = await startPortal(env, { logDestination: { write: (line: string) => void lines.push(JSON.parse(line) as Line) } });
  portals.push(portal);
  return { portal, lines };
}

/** The lines of one request (its id is the X-Request-Id of the answer), once the answer has been logged. */
async function linesOf(lines: Line[], requestId: string | null): Promise<Line[]> {
  expect(requestId).toBeTruthy();
  // the line is written when the answer has been sent (onResponse), just after the client has it
  await expect.poll(() => lines.some((l) => l.reqId === requestId), { timeout: 5_000, interval: 10 }).toBe(true);
  return lines.filter((l) => l.reqId === requestId);
}

describe('access log', () => {
  it('at LOG_LEVEL=info: one line per request with its id, method, path without the query, status and response time', async () => {
    const { portal, lines } = await portalWithLog({ LOG_LEVEL: 'info' });
    const client = portal.client();
    const anonymous = await client.get('/api/identity/user-info?code=secret-code', {
      headers: { 'x-request-id': 'caller-7', cookie: 'pp_session=not-a-session' },
    });
    expect(anonymous.status).toBe(401);
    const [line, ...more] = await linesOf(lines, anonymous.headers.get('x-request-id'));
    expect(more).toEqual([]);
    expect(line).toMatchObject({
      level: 30,
      msg: 'request completed',
      method: 'GET',
      path: '/api/identity/user-info',
      status: 401,
      caller_request_id: 'caller-7',
    });
    expect(typeof line!.responseTime).toBe('number');
    expect(line!.responseTime).toBeGreaterThanOrEqual(0);
    // nothing of the request beyond those fields: no headers, cookies, query string or answer
    expect(Object.keys(line!).sort()).toEqual(
      ['caller_request_id', 'hostname', 'level', 'method', 'msg', 'path', 'pid', 'reqId', 'responseTime', 'status', 'time'].sort(),
    );
    expect(JSON.stringify(line)).not.toContain('secret-code');
    expect(JSON.stringify(line)).not.toContain('not-a-session');

    const signedIn = await (await portal.sessionFor(portal.adminUserId)).get('/api/identity/user-info');
    expect(signedIn.status).toBe(200);
    const [read, ...again] = await linesOf(lines, signedIn.headers.get('x-request-id'));
    expect(again).toEqual([]);
    expect(read).toMatchObject({ method: 'GET', path: '/api/identity/user-info', status: 200 });
    expect(read).not.toHaveProperty('caller_request_id');
    // Fastify's own request lines are off
    expect(lines.filter((l) => l.msg === 'incoming request')).toEqual([]);
  });

  it('is off with ACCESS_LOG=false, and at LOG_LEVEL=warn', async () => {
    const configurations: Record<string, string>[] = [{ LOG_LEVEL: 'info', ACCESS_LOG: 'false' }, { LOG_LEVEL: 'warn' }];
    for (const env of configurations) {
      const { portal, lines } = await portalWithLog(env);
      const res = await portal.client().get('/api/identity/user-info');
      expect(res.status).toBe(401);
      // closed: every answered request's work (its onResponse hooks) has run, and no line can come later
      await portal.close();
      portals.splice(portals.indexOf(portal), 1);
      expect(lines.filter((l) => l.reqId === res.headers.get('x-request-id'))).toEqual([]);
    }
  });
});
