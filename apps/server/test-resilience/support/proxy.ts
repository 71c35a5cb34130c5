import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small round-robin HTTP proxy on loopback (what a load balancer does in front of several
 * instances). Each request goes to the next backend; the answer says which one served it in
 * `x-served-by`. A backend that refuses the connection gets a 502 from the proxy.
 */
export interface RoundRobinProxy {
  url: string;
  port: number;
  /** how many requests each backend got */
  counts: Map<string, number>;
  close(): Promise<void>;
}

export async function startProxy(backends: string[], port = 0): Promise<RoundRobinProxy> {
  let next = 0;
  const counts = new Map<string, number>(backends.map((b) => [b, 0]));
  const server: Server = createServer((req, res) => {
    const backend = new URL(backends[next++ % backends.length]!);
    counts.set(backend.origin, (counts.get(backend.origin) ?? 0) + 1);
    const upstream = request(
      {
        hostname: backend.hostname,
        port: backend.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, 'x-forwarded-for': req.socket.remoteAddress ?? '' },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'x-served-by': backend.port });
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('bad gateway');
    });
    req.pipe(upstream);
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}`,
    port: actual,
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
