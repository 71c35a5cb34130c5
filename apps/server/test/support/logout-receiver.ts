import { createServer } from 'node:http';
import { decodeJwt } from 'jose';
import { freePort } from './portal.js';
import { until } from './wait.js';

/**
 * A relying party's logout endpoints on a real socket: back-channel logout (POST /backchannel, the
 * logout tokens kept in the order they came) and a front-channel page that answers 200. While
 * `down` is set, /backchannel answers 503 and keeps nothing (a relying party that is down: its
 * logouts wait in the outbox).
 */
export interface LogoutReceiver {
  /** http://127.0.0.1:<port>, without a path */
  url: string;
  /** the logout tokens received at /backchannel, in order */
  tokens: string[];
  /** how many back-channel calls were refused while down */
  refused: number;
  /** answer 503 to back-channel logout */
  down: boolean;
  /** the logout tokens received for one account (`sub`) */
  tokensFor(sub: string): string[];
  /** until at least `atLeast` logout tokens for the account came (or the timeout passed): how many came */
  waitForTokensOf(sub: string, atLeast?: number, timeoutMs?: number): Promise<number>;
  close(): Promise<void>;
}

export async function startLogoutReceiver(): Promise<LogoutReceiver> {
  const port = await freePort();
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      if (req.url === '/backchannel' && receiver.down) {
        receiver.refused++;
        res.writeHead(503).end();
        return;
      }
      if (req.url === '/backchannel') receiver.tokens.push(new URLSearchParams(body).get('logout_token') ?? '');
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  const receiver: LogoutReceiver = {
    url: `http://127.0.0.1:${port}`,
    tokens: [],
    refused: 0,
    down: false,
    tokensFor: (sub) => receiver.tokens.filter((t) => decodeJwt(t).sub === sub),
    async waitForTokensOf(sub, atLeast = 1, timeoutMs = 15_000) {
      await until(`${atLeast} logout token(s) for ${sub}`, () => receiver.tokensFor(sub).length >= atLeast, timeoutMs, 10).catch(
        () => undefined,
      );
      return receiver.tokensFor(sub).length;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return receiver;
}
