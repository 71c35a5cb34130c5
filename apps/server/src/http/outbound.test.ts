import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  checkAddressLiteral,
  checkOutboundUrl,
  guardedLookup,
  isNonPublicAddress,
  OutboundAddressRefused,
  outboundFetch,
  outboundPolicy,
} from './outbound.js';

const closed = { allowPrivateNetworks: false };
const open = { allowPrivateNetworks: true };

describe('outgoing calls and private networks', () => {
  it('knows the addresses that are not on the public internet', () => {
    for (const address of [
      '127.0.0.1',
      '10.0.0.8',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      '::ffff:10.0.0.1',
      '::ffff:127.0.0.1',
      '224.0.0.1',
      '255.255.255.255',
    ]) {
      expect(isNonPublicAddress(address), address).toBe(true);
    }
    for (const address of ['93.184.215.14', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8', '172.32.0.1']) {
      expect(isNonPublicAddress(address), address).toBe(false);
    }
  });

  it('is closed in production only, unless OUTBOUND_ALLOW_PRIVATE_NETWORKS=true', () => {
    expect(outboundPolicy({ isProduction: true, OUTBOUND_ALLOW_PRIVATE_NETWORKS: false })).toEqual(closed);
    expect(outboundPolicy({ isProduction: true, OUTBOUND_ALLOW_PRIVATE_NETWORKS: true })).toEqual(open);
    expect(outboundPolicy({ isProduction: false, OUTBOUND_ALLOW_PRIVATE_NETWORKS: false })).toEqual(open);
  });

  it('refuses private addresses and names that resolve to them, and lets public ones through', async () => {
    await expect(checkOutboundUrl(new URL('http://127.0.0.1:8080/x'), closed)).rejects.toBeInstanceOf(OutboundAddressRefused);
    await expect(checkOutboundUrl(new URL('http://[::1]/x'), closed)).rejects.toBeInstanceOf(OutboundAddressRefused);
    await expect(checkOutboundUrl(new URL('http://localhost/x'), closed)).rejects.toMatchObject({ host: 'localhost' });
    await expect(checkOutboundUrl(new URL('https://93.184.215.14/x'), closed)).resolves.toBeUndefined();
    await expect(checkOutboundUrl(new URL('http://127.0.0.1/x'), open)).resolves.toBeUndefined();
    expect(() => checkAddressLiteral(new URL('http://10.0.0.1/'), closed)).toThrow(OutboundAddressRefused);
    expect(() => checkAddressLiteral(new URL('http://localhost/'), closed)).not.toThrow();
  });

  it('refuses at connection time a name that resolves to a private address (guardedLookup)', async () => {
    const lookup = guardedLookup(closed);
    const result = await new Promise<{ err: Error | null; address: unknown }>((resolve) =>
      lookup('localhost', { family: 0 }, (err, address) => resolve({ err, address })),
    );
    expect(result.err).toBeInstanceOf(OutboundAddressRefused);
    const allowed = await new Promise<{ err: Error | null; address: unknown }>((resolve) =>
      guardedLookup(open)('localhost', { family: 4 }, (err, address) => resolve({ err, address })),
    );
    expect(allowed).toEqual({ err: null, address: '127.0.0.1' });
  });
});

describe('IPv6 addresses that embed an IPv4 address', () => {
  // Teredo (2001::/32): server IPv4 in bits 32-63, client IPv4 in the last 32 bits XOR 0xffffffff
  const teredoToLoopback = '2001:0:4136:e378:8000:63bf:80ff:fffe'; // server 65.54.227.120, client 127.0.0.1
  const teredoToPublic = '2001:0:4136:e378:8000:63bf:f7f7:f7f7'; // server 65.54.227.120, client 8.8.8.8
  const teredoViaPrivateServer = '2001:0:a00:1:8000:63bf:f7f7:f7f7'; // server 10.0.0.1, client 8.8.8.8

  it('judges the embedded IPv4 address: non-public when it is', () => {
    for (const address of [
      '::127.0.0.1', // IPv4-compatible (deprecated)
      '::7f00:1',
      '::8.8.8.8', // IPv4-compatible, even with a public IPv4: deprecated, no host has one
      '::ffff:7f00:1', // IPv4-mapped
      '::ffff:a9fe:a9fe',
      '::ffff:0:7f00:1', // IPv4-translated (RFC 6145)
      '64:ff9b::7f00:1', // NAT64 (RFC 6052)
      '64:ff9b::a9fe:a9fe',
      '64:ff9b::10.0.0.1',
      '64:ff9b:1::808:808', // local-use NAT64 (RFC 8215): the operator's own translator
      '2002:7f00:1::', // 6to4
      '2002:a00:1::1',
      '2002:a9fe:a9fe::1',
      teredoToLoopback,
      teredoViaPrivateServer,
    ]) {
      expect(isNonPublicAddress(address), address).toBe(true);
    }
    for (const address of ['::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1', teredoToPublic]) {
      expect(isNonPublicAddress(address), address).toBe(false);
    }
  });

  it('knows the other ranges that are not public, and refuses what is no address', () => {
    for (const address of ['fec0::1', '2001:db8::1', '2001:2::1', '100::1', 'ff02::1', '3fff::1', '1::1', 'fe80::1%eth0']) {
      expect(isNonPublicAddress(address), address).toBe(true);
    }
    for (const address of ['', 'localhost', '127.1', '0x7f.0.0.1', '2130706433', '1.2.3.4.5', ':::1']) {
      expect(isNonPublicAddress(address), address).toBe(true);
    }
  });

  it('refuses URLs with such literals', async () => {
    for (const url of [
      'http://[::127.0.0.1]/',
      'http://[::ffff:7f00:1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[64:ff9b::7f00:1]/',
      'http://[2002:7f00:1::]/',
      `http://[${teredoToLoopback}]/`,
    ]) {
      expect(() => checkAddressLiteral(new URL(url), closed), url).toThrow(OutboundAddressRefused);
      await expect(checkOutboundUrl(new URL(url), closed), url).rejects.toBeInstanceOf(OutboundAddressRefused);
      await expect(outboundFetch(closed)(url), url).rejects.toBeInstanceOf(OutboundAddressRefused);
    }
  });
});

describe('redirects of the guarded fetch', () => {
  let target: Server | undefined;
  afterEach(async () => {
    vi.unstubAllGlobals();
    await new Promise((resolve) => (target ? target.close(resolve) : resolve(undefined)));
  });

  /**
   * A host on the public internet (93.184.215.14) that redirects to a server on loopback, which
   * counts the requests that reach it. The public host is played by a stand-in for the global
   * fetch that does with its 302 what Node's fetch does: hands it back (redirect: 'manual'), fails
   * ('error'), or follows it (the default) without asking the connection's lookup about the new
   * host, an IP literal.
   */
  async function publicHostRedirectingToLoopback(): Promise<{ url: string; reached: () => number }> {
    let reached = 0;
    target = createServer((_req, res) => {
      reached++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"keys":[]}');
    });
    await new Promise<void>((resolve) => target!.listen(0, '127.0.0.1', resolve));
    const location = `http://127.0.0.1:${(target.address() as { port: number }).port}/jwks`;
    const realFetch = globalThis.fetch;
    vi.stubGlobal('fetch', async (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : input);
      if (url.hostname !== '93.184.215.14') return realFetch(input, init);
      if (init?.redirect === 'manual') return new Response(null, { status: 302, headers: { location } });
      if (init?.redirect === 'error') throw new TypeError('fetch failed: unexpected redirect');
      return realFetch(location, init);
    });
    return { url: 'https://93.184.215.14/jwks', reached: () => reached };
  }

  it('never follows a redirect: the 3xx is the answer, whatever the caller asked for', async () => {
    const guarded = outboundFetch(closed);
    const host = await publicHostRedirectingToLoopback();
    // oidc-provider fetches a client's jwks_uri and sector_identifier_uri without a redirect option
    const plain = await guarded(host.url, { method: 'GET' });
    expect(plain.status).toBe(302);
    expect(plain.headers.get('location')).toMatch(/^http:\/\/127\.0\.0\.1:/);
    const follow = await guarded(host.url, { redirect: 'follow' });
    expect(follow.status).toBe(302);
    await expect(guarded(host.url, { redirect: 'error' })).rejects.toThrow();
    expect(host.reached()).toBe(0);
  });

  it('does not follow one either when private networks are allowed (the same answers in development)', async () => {
    const host = await publicHostRedirectingToLoopback();
    const res = await outboundFetch(open)(host.url);
    expect(res.status).toBe(302);
    expect(host.reached()).toBe(0);
  });
});
