import { describe, expect, it } from 'vitest';
import {
  checkAddressLiteral,
  checkOutboundUrl,
  guardedLookup,
  isNonPublicAddress,
  OutboundAddressRefused,
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
