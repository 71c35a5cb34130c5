// The physical limit of password logins: raw argon2id hashes per second with @node-rs/argon2 (the
// library and parameters the portal uses), with `concurrency` hashes in flight, for `seconds`.
// Run as its own process, like the portal. Usage: node bench/argon2-rate.mjs <concurrency> <seconds> '<options json>'
import { fromServer } from './lib/util.mjs';

const { hash } = fromServer('@node-rs/argon2');
const concurrency = Number(process.argv[2] ?? 2);
const seconds = Number(process.argv[3] ?? 5);
const options = JSON.parse(process.argv[4] ?? '{"algorithm":2,"memoryCost":19456,"timeCost":2,"parallelism":1}');

// warm-up: one hash per worker
await Promise.all(Array.from({ length: concurrency }, () => hash('Warm-up-passw0rd!', options)));
let done = 0;
const start = process.hrtime.bigint();
const deadline = Date.now() + seconds * 1000;
await Promise.all(
  Array.from({ length: concurrency }, async (_, i) => {
    while (Date.now() < deadline) {
      await hash(`Bench-passw0rd-${i}-${done}`, options);
      done += 1;
    }
  }),
);
const elapsed = Number(process.hrtime.bigint() - start) / 1e9;
process.stdout.write(JSON.stringify({ hashes: done, seconds: elapsed, perSecond: done / elapsed, concurrency, options }));
