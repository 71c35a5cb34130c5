import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { DeliverySender, newSigningSecret, signerFor } from './sender.js';

/** One attempt as the sender makes it: signed as Standard Webhooks, refused where the policy says. */
let url = '';
const seen: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (d: Buffer) => (body += d.toString()));
  req.on('end', () => {
    seen.push({ headers: req.headers, body });
    res.writeHead(req.url === '/fail' ? 500 : 204).end();
  });
});
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('a delivery attempt', () => {
  it('posts the body with the Standard Webhooks headers, which the standardwebhooks package verifies', async () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const sender = new DeliverySender({ timeoutMs: 2000, policy: { allowPrivateNetworks: true } });
    const payload = JSON.stringify({ type: 'member.removed', timestamp: new Date().toISOString(), data: { organization_id: 'o' } });
    const ok = await sender.send(`${url}/ok`, signerFor(secret), { id: 'msg-1', payload });
    expect(ok).toMatchObject({ ok: true, status: 204, error: null });
    const last = seen.at(-1)!;
    expect(last.body).toBe(payload);
    expect(new Webhook(secret).verify(last.body, last.headers as Record<string, string>)).toEqual(JSON.parse(payload));
    expect(() => new Webhook(newSigningSecret()).verify(last.body, last.headers as Record<string, string>)).toThrow();
    const failed = await sender.send(`${url}/fail`, signerFor(secret), { id: 'msg-2', payload });
    expect(failed).toMatchObject({ ok: false, status: 500, error: 'answered 500' });
    sender.close();
  });

  it('refuses a private address when the policy is closed, for an address and for a name, before anything is sent', async () => {
    const sender = new DeliverySender({ timeoutMs: 2000, policy: { allowPrivateNetworks: false } });
    const before = seen.length;
    const port = new URL(url).port;
    const literal = await sender.send(`${url}/ok`, signerFor(newSigningSecret()), { id: 'msg-3', payload: '{}' });
    expect(literal).toMatchObject({ ok: false, status: null, error: expect.stringContaining('not a public address') });
    const name = await sender.send(`http://localhost:${port}/ok`, signerFor(newSigningSecret()), { id: 'msg-4', payload: '{}' });
    expect(name).toMatchObject({ ok: false, status: null, error: expect.stringContaining('localhost is not a public address') });
    expect(seen.length).toBe(before);
    sender.close();
  });
});
