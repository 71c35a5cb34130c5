import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPrivateAddress, OutboundRefused, outboundFetch, outboundOptions } from './outbound.js';

let server: Server;
let port: number;

beforeAll(async () => {
  server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('reached'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('the outbound guard (http/outbound.ts)', () => {
  it('knows the loopback, private, link-local and unique-local ranges', () => {
    for (const address of [
      '127.0.0.1',
      '127.8.9.10',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.254',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fd00::1',
      'fc12:3456::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
    ]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '192.169.0.1', '2001:4860:4860::8888', '::ffff:8.8.8.8']) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
    expect(isPrivateAddress('not-an-address')).toBe(true);
  });

  it('allows private networks outside production, and in production only when the operator says so', () => {
    expect(outboundOptions({ isProduction: false, OUTBOUND_ALLOW_PRIVATE_NETWORKS: false }).allowPrivate).toBe(true);
    expect(outboundOptions({ isProduction: true, OUTBOUND_ALLOW_PRIVATE_NETWORKS: false }).allowPrivate).toBe(false);
    expect(outboundOptions({ isProduction: true, OUTBOUND_ALLOW_PRIVATE_NETWORKS: true }).allowPrivate).toBe(true);
  });

  it('refuses 127.0.0.1, a name that resolves to loopback, and [::1] when private networks are not allowed', async () => {
    const guarded = outboundFetch({ allowPrivate: false });
    await expect(guarded(`http://127.0.0.1:${port}/`)).rejects.toBeInstanceOf(OutboundRefused);
    await expect(guarded(new URL(`http://localhost:${port}/`))).rejects.toBeInstanceOf(OutboundRefused);
    await expect(guarded(`http://[::1]:${port}/`)).rejects.toBeInstanceOf(OutboundRefused);
    await expect(guarded(`http://169.254.169.254/latest/meta-data/`)).rejects.toBeInstanceOf(OutboundRefused);
  });

  it('reaches a private address when allowed', async () => {
    const res = await outboundFetch({ allowPrivate: true })(`http://127.0.0.1:${port}/`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('reached');
  });
});
