// The peers of the authenticated reads, on the same machine: a bare Fastify hello-world (same
// Fastify as the portal, no plugins, no logger) at GET /, and at GET /db the same plus one
// PostgreSQL round trip (pg pool of 10, like the portal's default) when a database URL is given.
// Usage: node bench/hello.mjs <port> [database url]
import { fromServer } from './lib/util.mjs';

const Fastify = fromServer('fastify');
const pg = fromServer('pg');
const app = Fastify({ logger: false });
const pool = process.argv[3] ? new pg.Pool({ connectionString: process.argv[3], max: 10 }) : null;
app.get('/', async () => ({ hello: 'world' }));
if (pool) {
  app.get('/db', async () => {
    const { rows } = await pool.query('SELECT $1::text AS hello', ['world']);
    return rows[0];
  });
}
await app.listen({ port: Number(process.argv[2] ?? 3999), host: '127.0.0.1' });
process.on(
  'SIGTERM',
  () =>
    void app
      .close()
      .then(() => pool?.end())
      .then(() => process.exit(0)),
);
