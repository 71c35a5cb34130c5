import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.HOST).toBe('127.0.0.1');
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.DATA_DIR).toBe('./data');
    expect(config.BOOTSTRAP_ADMIN_EMAIL).toBe('admin@example.com');
    expect(config.MAIL_FROM).toBe('Partner Portal <no-reply@localhost>');
    expect(config.NODE_ENV).toBe('development');
    expect(config.externalIdp).toBeNull();
  });

  it('derives PUBLIC_URL from PORT and honours an explicit one', () => {
    expect(loadConfig({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
    const config = loadConfig({ PUBLIC_URL: 'https://portal.example.com/' });
    expect(config.publicUrl).toBe('https://portal.example.com');
    expect(config.isHttps).toBe(true);
  });

  it('names every bad variable at once', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'abc', DATABASE_URL: 'nonsense', SMTP_URL: 'http://x', BOOTSTRAP_ADMIN_EMAIL: 'not-an-email' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    for (const name of ['PORT', 'DATABASE_URL', 'SMTP_URL', 'BOOTSTRAP_ADMIN_EMAIL']) expect(message).toContain(name);
  });

  it('e-mail retries: the first after 15 s by default, a base of more than 0 up to 25 s (the first retry within 30 s, jitter included)', () => {
    expect(loadConfig({}).MAIL_RETRY_BASE_SECONDS).toBe(15);
    expect(loadConfig({ MAIL_RETRY_BASE_SECONDS: '1' }).MAIL_RETRY_BASE_SECONDS).toBe(1);
    expect(loadConfig({ MAIL_RETRY_BASE_SECONDS: '1.5' }).MAIL_RETRY_BASE_SECONDS).toBe(1.5);
    expect(loadConfig({ MAIL_RETRY_BASE_SECONDS: '0.05' }).MAIL_RETRY_BASE_SECONDS).toBe(0.05);
    for (const bad of ['0', '-1', '26', 'soon'])
      expect(() => loadConfig({ MAIL_RETRY_BASE_SECONDS: bad })).toThrow(/MAIL_RETRY_BASE_SECONDS/);
  });

  it('webhook retries: the first after 30 s by default, a base of more than 0 up to 3600 s, decimals taken', () => {
    expect(loadConfig({}).WEBHOOK_RETRY_BASE_SECONDS).toBe(30);
    expect(loadConfig({ WEBHOOK_RETRY_BASE_SECONDS: '0.05' }).WEBHOOK_RETRY_BASE_SECONDS).toBe(0.05);
    for (const bad of ['0', '-0.5', '3601', 'soon'])
      expect(() => loadConfig({ WEBHOOK_RETRY_BASE_SECONDS: bad })).toThrow(/WEBHOOK_RETRY_BASE_SECONDS/);
  });

  it('wants both the issuer and the client id of an external identity provider', () => {
    expect(() => loadConfig({ EXTERNAL_IDP_ISSUER: 'https://idp.example.com' })).toThrow(/EXTERNAL_IDP/);
    const config = loadConfig({
      EXTERNAL_IDP_ISSUER: 'https://idp.example.com',
      EXTERNAL_IDP_CLIENT_ID: 'portal',
      EXTERNAL_IDP_EMAIL_DOMAINS: '@Corp.example, other.example',
    });
    expect(config.externalIdp?.emailDomains).toEqual(['corp.example', 'other.example']);
  });

  it('verified domains: the system’s resolvers, a recheck a day and two-second DNS questions by default; DNS_SERVERS as Resolver#setServers takes them', () => {
    const defaults = loadConfig({});
    expect(defaults.DNS_SERVERS).toBeUndefined();
    expect(defaults.DOMAIN_RECHECK_HOURS).toBe(24);
    expect(defaults.DNS_TIMEOUT_MS).toBe(2000);
    expect(loadConfig({ DNS_SERVERS: '192.0.2.53, 127.0.0.1:5353,[2001:db8::1]:53', DNS_TIMEOUT_MS: '250' })).toMatchObject({
      DNS_SERVERS: ['192.0.2.53', '127.0.0.1:5353', '[2001:db8::1]:53'],
      DNS_TIMEOUT_MS: 250,
    });
    expect(() => loadConfig({ DNS_SERVERS: 'dns.example', DNS_TIMEOUT_MS: '0' })).toThrow(/DNS_SERVERS[\s\S]*DNS_TIMEOUT_MS/);
  });

  it('DNS_SERVERS: refuses port 0 (Node’s resolver aborts the process on it) and ports above 65535, naming the variable', () => {
    for (const servers of ['127.0.0.1:0', '[::1]:0', '192.0.2.53,127.0.0.1:00', '127.0.0.1:65536', '[::1]:70000']) {
      expect(() => loadConfig({ DNS_SERVERS: servers }), servers).toThrow(/DNS_SERVERS/);
    }
    expect(loadConfig({ DNS_SERVERS: '::1,[::1],[::1]:5353,127.0.0.1:65535' }).DNS_SERVERS).toEqual([
      '::1',
      '[::1]',
      '[::1]:5353',
      '127.0.0.1:65535',
    ]);
  });

  it('operations: metrics off and no traces by default; the OTLP traces URL from the standard variables', () => {
    const defaults = loadConfig({});
    expect(defaults.METRICS_ENABLED).toBe(false);
    expect(defaults.METRICS_TOKEN).toBeUndefined();
    expect(defaults.tracesEndpoint).toBeNull();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).tracesEndpoint).toBe('http://collector:4318/v1/traces');
    expect(
      loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://traces:4318/custom' })
        .tracesEndpoint,
    ).toBe('http://traces:4318/custom');
    expect(() => loadConfig({ METRICS_TOKEN: 'short', OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(
      /METRICS_TOKEN[\s\S]*OTEL_EXPORTER_OTLP_ENDPOINT/,
    );
  });
});
