import { loadConfig } from '../config.js';
import { closeServices, createLogger, createServices } from '../main.js';
import { rotateSigningKey } from '../oidc/keys.js';

/**
 * Rotate the provider's signing keys (one new key per algorithm of OIDC_SIGNING_ALGS) without downtime:
 *   node apps/server/dist/cli/rotate-keys.js [activateInSeconds]
 * The new key is published at once by every instance (within a minute) and signs from
 * activateInSeconds on (default 600); the old key stays published for a day after that.
 */
async function run(): Promise<void> {
  const activateIn = Number(process.argv[2] ?? 600);
  if (!Number.isFinite(activateIn) || activateIn < 0) throw new Error('activateInSeconds must be a number of seconds');
  const config = loadConfig();
  const services = await createServices(config, createLogger(config));
  try {
    for (const alg of config.OIDC_SIGNING_ALGS) {
      const kid = await rotateSigningKey(services.db, services.secrets.keyEncryption, activateIn, alg);
      console.log(`new ${alg} signing key ${kid}: published now, signs in ${activateIn} s`);
    }
  } finally {
    await closeServices(services);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  run().catch((err: unknown) => {
    console.error((err as Error).message);
    process.exit(1);
  });
}
