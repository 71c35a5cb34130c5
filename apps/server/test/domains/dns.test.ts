import { createSocket } from 'node:dgram';
import { Packet } from 'dns2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTxtLookup, type TxtLookup } from '../../src/modules/domains/dns.js';
import { startDnsServer, type DnsServer } from '../support/dns-server.js';

/**
 * The TXT lookup of verified domains (modules/domains/dns.ts) against a real DNS server on
 * 127.0.0.1: what counts as an answer that there is no record (the domain loses its verification)
 * and what counts as no answer at all (nothing changes).
 */
let dns: DnsServer;
let lookup: TxtLookup;

beforeAll(async () => {
  dns = await startDnsServer();
  lookup = createTxtLookup({ DNS_SERVERS: [dns.address], DNS_TIMEOUT_MS: 200 });
});
afterAll(() => dns?.stop());

describe('TXT lookup', () => {
  it('gives every record, each one’s character-strings joined', async () => {
    const long = `partner-portal-verification=${'x'.repeat(300)}`;
    dns.set('_partner-portal.records.example', 'v=spf1 -all', ['partner-portal-', 'verification=abc'], long);
    expect(await lookup.txt('_partner-portal.records.example')).toEqual({
      kind: 'records',
      values: ['v=spf1 -all', 'partner-portal-verification=abc', long],
    });
  });

  it('says there is none for a name that does not exist or has no TXT record', async () => {
    expect(await lookup.txt('_partner-portal.missing.example')).toEqual({ kind: 'none' });
    dns.set('_partner-portal.empty.example');
    expect(await lookup.txt('_partner-portal.empty.example')).toEqual({ kind: 'none' });
  });

  it('says DNS did not answer on a timeout, SERVFAIL, a refusal, or with no server listening', async () => {
    dns.silence('_partner-portal.silent.example');
    const started = Date.now();
    expect(await lookup.txt('_partner-portal.silent.example')).toEqual({ kind: 'unanswered', code: 'ETIMEOUT' });
    expect(Date.now() - started).toBeLessThan(5_000);
    dns.fail('_partner-portal.servfail.example');
    expect(await lookup.txt('_partner-portal.servfail.example')).toEqual({ kind: 'unanswered', code: 'ESERVFAIL' });
    dns.fail('_partner-portal.refused.example', Packet.RCODE.REFUSED);
    expect(await lookup.txt('_partner-portal.refused.example')).toEqual({ kind: 'unanswered', code: 'EREFUSED' });
    await dns.stop();
    try {
      expect(await lookup.txt('_partner-portal.records.example')).toMatchObject({ kind: 'unanswered' });
    } finally {
      await dns.start();
    }
    expect((await lookup.txt('_partner-portal.records.example')).kind).toBe('records');
  });

  it('asks the next resolver of DNS_SERVERS when one does not answer', async () => {
    dns.set('_partner-portal.several.example', 'partner-portal-verification=several');
    // port 9 (discard): nobody answers there
    const several = createTxtLookup({ DNS_SERVERS: ['127.0.0.1:9', dns.address], DNS_TIMEOUT_MS: 200 });
    expect(await several.txt('_partner-portal.several.example')).toEqual({
      kind: 'records',
      values: ['partner-portal-verification=several'],
    });
  });

  it('asks a resolver given as [ipv6]:port', async () => {
    // the test's DNS server listens on IPv4 only (dns2): a relay on [::1] passes the questions on
    const relay = createSocket('udp6');
    const upstream = createSocket('udp4');
    let asker: { address: string; port: number } | null = null;
    relay.on('message', (msg, from) => {
      asker = from;
      upstream.send(msg, dns.port, '127.0.0.1');
    });
    upstream.on('message', (msg) => {
      if (asker) relay.send(msg, asker.port, asker.address);
    });
    await new Promise<void>((resolve) => relay.bind(0, '::1', resolve));
    try {
      dns.set('_partner-portal.v6.example', 'partner-portal-verification=v6');
      const v6 = createTxtLookup({ DNS_SERVERS: [`[::1]:${relay.address().port}`], DNS_TIMEOUT_MS: 500 });
      expect(await v6.txt('_partner-portal.v6.example')).toEqual({ kind: 'records', values: ['partner-portal-verification=v6'] });
    } finally {
      relay.close();
      upstream.close();
    }
  });
});
