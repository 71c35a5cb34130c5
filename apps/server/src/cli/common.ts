import { loadConfig, ConfigError } from '../config.js';
import { bootstrap } from '../bootstrap.js';
import { EmbeddedDatabaseInUseError } from '../db/client.js';
import { closeServices, createLogger, createServices } from '../main.js';
import type { Services } from '../services.js';

/** Open the database like main.ts (config, migrations, bootstrap of the root organization), run, close. */
export async function runCli(name: string, fn: (services: Services, args: Map<string, string>) => Promise<void>): Promise<void> {
  let services: Services | undefined;
  try {
    const config = loadConfig();
    services = await createServices(config, createLogger({ LOG_LEVEL: config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL }));
    const result = await bootstrap(services.db, {
      adminEmail: config.BOOTSTRAP_ADMIN_EMAIL,
      adminPassword: config.BOOTSTRAP_ADMIN_PASSWORD,
      providerName: config.PROVIDER_ORGANIZATION_NAME,
    });
    if (result.generatedPassword) console.log(`Administrator login: ${result.email} / ${result.generatedPassword}  (printed once)`);
    await fn(services, parseArgs(process.argv.slice(2)));
  } catch (err) {
    if (err instanceof ConfigError) console.error(err.message);
    else if (err instanceof EmbeddedDatabaseInUseError) console.error(embeddedDatabaseInUse(name, err));
    else console.error(`${name} failed: ${(err as Error).stack ?? String(err)}`);
    process.exitCode = 1;
  } finally {
    if (services) await closeServices(services).catch(() => undefined);
  }
}

/** What to do when the running portal holds the embedded database (no stack trace: nothing is broken). */
export function embeddedDatabaseInUse(name: string, err: EmbeddedDatabaseInUseError): string {
  return [
    `${name}: the portal (process ${err.pid}) is running on the embedded database in ${err.dataDir}.`,
    'The embedded database serves one process at a time. Either:',
    `  - stop the portal (Ctrl+C), run the command again, then start the portal again; or`,
    '  - run the portal and this command on PostgreSQL: set DATABASE_URL for both (see README.md, Using PostgreSQL).',
  ].join('\n');
}

/** --name value and --name=value pairs. */
export function parseArgs(argv: string[]): Map<string, string> {
  const args = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) continue;
    const eq = a.indexOf('=');
    if (eq > 0) args.set(a.slice(2, eq), a.slice(eq + 1));
    else {
      const next = argv[i + 1];
      if (next !== undefined && !next.startsWith('--')) {
        args.set(a.slice(2), next);
        i++;
      } else args.set(a.slice(2), 'true');
    }
  }
  return args;
}

export function positiveIntArg(args: Map<string, string>, name: string, fallback: number): number {
  const raw = args.get(name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number (got ${raw})`);
  return n;
}
