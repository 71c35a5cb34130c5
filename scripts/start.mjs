#!/usr/bin/env node
// npm start: build what is missing or out of date, then serve the whole portal on one port.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newest(dir) {
  let latest = 0;
  if (!existsSync(dir)) return latest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

function run(args) {
  const result = spawnSync('npm', args, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const serverOut = 'apps/server/dist/main.js';
if (
  !existsSync(serverOut) ||
  newest('apps/server/src') > statSync(serverOut).mtimeMs ||
  newest('packages/contracts/src') > statSync(serverOut).mtimeMs
) {
  console.log('Building the server…');
  run(['run', '--silent', 'build', '-w', '@partner-portal/contracts']);
  run(['run', '--silent', 'build', '-w', '@partner-portal/server']);
}
const webOut = 'apps/web/dist/index.html';
if (!existsSync(webOut) || Math.max(newest('apps/web/src'), newest('packages/contracts/src')) > statSync(webOut).mtimeMs) {
  console.log('Building the web app…');
  run(['run', '--silent', 'build', '-w', '@partner-portal/web']);
}
const { main } = await import('../apps/server/dist/main.js');
await main();
