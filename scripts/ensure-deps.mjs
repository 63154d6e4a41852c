#!/usr/bin/env node
// Installs the npm packages on a fresh clone so `npm start` / `npm test` need nothing typed first.
// Plain Node, no dependencies: it must run before anything is installed.
import { existsSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const marker = join(root, 'node_modules', '.package-lock.json');
const lock = join(root, 'package-lock.json');

function stale() {
  if (!existsSync(marker)) return true;
  // npm rewrites node_modules/.package-lock.json on every install; an older one means the lock moved on.
  return existsSync(lock) && statSync(lock).mtimeMs > statSync(marker).mtimeMs + 1000;
}

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  console.error(`Salient needs Node.js 20.19 or newer; this is ${process.version}. Install a newer Node and retry.`);
  process.exit(1);
}

function npm(args, captureStderr) {
  return spawnSync('npm', [...args, '--no-audit', '--no-fund'], {
    cwd: root,
    stdio: ['inherit', 'inherit', captureStderr ? 'pipe' : 'inherit'],
    encoding: 'utf8',
  });
}

if (stale()) {
  let r;
  if (existsSync(lock)) {
    console.error('salient: installing npm packages (npm ci) ...');
    r = npm(['ci'], true);
    // npm ci refuses a lock that lacks entries package.json implies, e.g. optional platform binaries
    // (turbo's darwin/windows builds) that the registry used to write the lock did not serve. npm
    // install accepts such a lock and fills in what it can, so fall back to it rather than stop.
    if (r.status !== 0 && /EUSAGE|in sync/.test(r.stderr ?? '')) {
      console.error('salient: npm ci refused: package-lock.json is not in step with package.json; running npm install instead ...');
      r = npm(['install'], false);
    } else if (r.status !== 0) {
      process.stderr.write(r.stderr ?? '');
    }
  } else {
    console.error('salient: installing npm packages (npm install) ...');
    r = npm(['install'], false);
  }
  if (r.status !== 0) {
    console.error('salient: npm install failed; see the output above.');
    process.exit(r.status ?? 1);
  }
}
