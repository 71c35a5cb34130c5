import http from 'node:http';
import https from 'node:https';
import { randomBytes } from 'node:crypto';
import { Webhook as Signer } from 'standardwebhooks';
import { checkAddressLiteral, guardedLookup, OutboundAddressRefused, type OutboundPolicy } from '../../http/outbound.js';

/**
 * One attempt to deliver (docs/integrations.md, "Webhooks"): `POST url` with the stored body and
 * the Standard Webhooks headers, signed by the `standardwebhooks` package with the webhook's secret.
 * An answer 2xx within the time-out is a success; anything else (another status, no answer, a
 * refused address, a redirect) is a failure with its reason. Connections are kept alive per host.
 */

/** The purpose its secrets are sealed for at rest (sealed.ts). */
export const SECRET_PURPOSE = 'webhook-signing-secret';

/** A new signing secret as Standard Webhooks writes it: `whsec_` and 32 random bytes in base64. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** Signs deliveries with one webhook's secret. */
export function signerFor(secret: string): Signer {
  return new Signer(secret);
}

export interface AttemptResult {
  ok: boolean;
  /** the answer's status, or null when none came */
  status: number | null;
  durationMs: number;
  /** why it failed (null on success) */
  error: string | null;
}

/** How much of an answer's body is read (and thrown away) before the connection is dropped. */
const MAX_ANSWER_BYTES = 64 * 1024;
const USER_AGENT = 'PartnerPortal-Webhooks/1.0';

class TimedOut extends Error {
  constructor(seconds: number) {
    super(`no answer within ${seconds} s`);
  }
}

/** Why a call failed, short and without internals: the refused address, the time-out, or the network error's code. */
function reasonOf(err: unknown): string {
  if (err instanceof TimedOut || err instanceof OutboundAddressRefused) return err.message;
  const e = err as { code?: string; message?: string };
  const text = e.code ? `${e.code}${e.message && !e.message.includes(e.code) ? `: ${e.message}` : ''}` : (e.message ?? String(err));
  return text.slice(0, 300);
}

export class DeliverySender {
  private readonly agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: 32 }),
    'https:': new https.Agent({ keepAlive: true, maxSockets: 32 }),
  };
  private readonly lookup;

  constructor(private readonly options: { timeoutMs: number; policy: OutboundPolicy }) {
    this.lookup = guardedLookup(options.policy);
  }

  /** Send one delivery; never throws. `id` is the webhook-id header, the same at every attempt. */
  async send(url: string, signer: Signer, message: { id: string; payload: string }): Promise<AttemptResult> {
    const started = performance.now();
    const durationMs = () => Math.round(performance.now() - started);
    try {
      const target = new URL(url);
      checkAddressLiteral(target, this.options.policy);
      const now = new Date();
      const status = await this.post(target, message.payload, {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        'webhook-id': message.id,
        'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
        'webhook-signature': signer.sign(message.id, now, message.payload),
      });
      const ok = status >= 200 && status < 300;
      return { ok, status, durationMs: durationMs(), error: ok ? null : `answered ${status}` };
    } catch (err) {
      return { ok: false, status: null, durationMs: durationMs(), error: reasonOf(err) };
    }
  }

  /** Close the kept-alive connections. */
  close(): void {
    this.agents['http:'].destroy();
    this.agents['https:'].destroy();
  }

  private post(url: URL, body: string, headers: Record<string, string>): Promise<number> {
    const { timeoutMs } = this.options;
    const payload = Buffer.from(body);
    return new Promise<number>((resolve, reject) => {
      const protocol = url.protocol === 'https:' ? 'https:' : 'http:';
      const request = (protocol === 'https:' ? https : http).request(url, {
        method: 'POST',
        agent: this.agents[protocol],
        lookup: this.lookup,
        headers: { ...headers, 'content-length': String(payload.length) },
      });
      const timer = setTimeout(() => request.destroy(new TimedOut(timeoutMs / 1000)), timeoutMs);
      const settle = (fn: () => void) => {
        clearTimeout(timer);
        fn();
      };
      request.on('error', (err) => settle(() => reject(err)));
      request.on('response', (response) => {
        const status = response.statusCode ?? 0;
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          // an endless answer: its status is known, its body is not wanted
          if (read > MAX_ANSWER_BYTES) {
            response.destroy();
            settle(() => resolve(status));
          }
        });
        response.on('end', () => settle(() => resolve(status)));
        response.on('error', (err) => settle(() => reject(err)));
      });
      request.end(payload);
    });
  }
}
