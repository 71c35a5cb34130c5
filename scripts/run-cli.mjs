#!/usr/bin/env node
// npm run seed:demo / seed:bench: build the server when needed, then run the command.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const [command, ...rest] = process.argv.slice(2);
const target = `apps/server/dist/cli/${command}.js`;
const build = spawnSync('npx', ['tsc', '-b', 'apps/server/tsconfig.build.json'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
if (!existsSync(target)) {
  console.error(`unknown command ${command}`);
  process.exit(2);
}
const result = spawnSync(process.execPath, [target, ...rest], { stdio: 'inherit' });
process.exit(result.status ?? 1);
