import type { IncomingMessage } from 'node:http';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { callerRequestId, RequestLogger } from './request-logger.js';

const request = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

describe('RequestLogger', () => {
  it("writes with the request's id and the caller's, and makes its child only when something is logged", () => {
    const lines: Record<string, unknown>[] = [];
    const parent = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    let children = 0;
    const child = parent.child.bind(parent);
    parent.child = ((...args: Parameters<typeof parent.child>) => {
      children += 1;
      return child(...args);
    }) as typeof parent.child;

    const quiet = new RequestLogger(parent, { reqId: 'r1' }, {}, request({ 'x-request-id': 'caller-1' }));
    expect(quiet.level).toBe('info');
    expect(children).toBe(0);

    const speaking = new RequestLogger(parent, { reqId: 'r2' }, {}, request({ 'x-request-id': 'caller-2' }));
    speaking.warn({ key: 'k' }, 'something');
    speaking.info('more');
    expect(children).toBe(1);
    expect(lines).toMatchObject([
      { level: 40, reqId: 'r2', caller_request_id: 'caller-2', key: 'k', msg: 'something' },
      { level: 30, reqId: 'r2', caller_request_id: 'caller-2', msg: 'more' },
    ]);
  });

  it("takes only a plain, short caller's request id", () => {
    expect(callerRequestId(request({ 'x-request-id': 'abc-1.2_3' }))).toEqual({ caller_request_id: 'abc-1.2_3' });
    expect(callerRequestId(request({ 'x-request-id': 'a b' }))).toEqual({});
    expect(callerRequestId(request({ 'x-request-id': 'x'.repeat(101) }))).toEqual({});
    expect(callerRequestId(request({}))).toEqual({});
  });
});
