import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundAddressRefused, outboundFetch } from './outbound.js';

/** The guarded fetch of http/outbound.ts (openid-client's customFetch, oidc-provider's fetch) against a server on loopback. */
let server: Server;
let port: number;

beforeAll(async () => {
  server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('reached'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('the guarded fetch', () => {
  it('refuses 127.0.0.1, a name that resolves to loopback, [::1] and the metadata address when private networks are not allowed', async () => {
    const guarded = outboundFetch({ allowPrivateNetworks: false });
    await expect(guarded(`http://127.0.0.1:${port}/`)).rejects.toBeInstanceOf(OutboundAddressRefused);
    await expect(guarded(new URL(`http://localhost:${port}/`))).rejects.toBeInstanceOf(OutboundAddressRefused);
    await expect(guarded(`http://[::1]:${port}/`)).rejects.toBeInstanceOf(OutboundAddressRefused);
    await expect(guarded('http://169.254.169.254/latest/meta-data/')).rejects.toBeInstanceOf(OutboundAddressRefused);
    await expect(guarded('file:///etc/passwd')).rejects.toBeInstanceOf(OutboundAddressRefused);
  });

  it('reaches a private address when allowed', async () => {
    const res = await outboundFetch({ allowPrivateNetworks: true })(`http://127.0.0.1:${port}/`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('reached');
  });
});
