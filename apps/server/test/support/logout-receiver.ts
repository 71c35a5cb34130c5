import { createServer } from 'node:http';
import { freePort } from './portal.js';

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
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return receiver;
}
