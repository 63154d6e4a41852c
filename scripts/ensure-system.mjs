#!/usr/bin/env node
// Installs the Debian packages the tests need (`npm test` runs this right after ensure-deps.mjs), so a
// fresh machine needs nothing typed first. The tests start clickhouse-server and redis-server
// themselves on free ports; chromium is for the browser tests; python3 runs the example external bot
// (examples/bots/random_bot.py); prometheus-redis-exporter is the redis_exporter infra runs, whose
// metrics test/dashboards.test.ts reads to check the operations dashboard. `npm start` never runs this.
// Plain Node, no dependencies: it must run before anything is installed.
//
// Environment:
//   SALIENT_SKIP_SYSTEM_DEPS=1        skip the check entirely (tests that need these servers will fail).
// For this script's own tests only (test/ensure-system.test.ts):
//   SALIENT_ENSURE_SYSTEM_DRYRUN=1    print the plan instead of running apt-get (still probes `sudo -n true`).
//   SALIENT_ENSURE_SYSTEM_ROOT=DIR    with DRYRUN: look for the binaries under DIR instead of /.
//   SALIENT_ENSURE_SYSTEM_UID=N       with DRYRUN: act as if running as user id N.
import { accessSync, constants, existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { delimiter, join } from 'node:path';

/** Debian package -> the file whose presence means it is installed. */
const needed = [
  { pkg: 'clickhouse-server', file: '/usr/sbin/clickhouse-server' },
  { pkg: 'redis-server', file: '/usr/bin/redis-server' },
  { pkg: 'chromium', file: '/usr/bin/chromium' },
  { pkg: 'python3', file: '/usr/bin/python3' },
  { pkg: 'prometheus-redis-exporter', file: '/usr/bin/prometheus-redis-exporter' },
];

const env = process.env;
if (env.SALIENT_SKIP_SYSTEM_DEPS === '1') process.exit(0);

const dryRun = env.SALIENT_ENSURE_SYSTEM_DRYRUN === '1';
// The overrides only apply to a dry run, so a stray variable can never make a real run install into
// the wrong place or skip the privilege check.
const fsRoot = dryRun && env.SALIENT_ENSURE_SYSTEM_ROOT ? env.SALIENT_ENSURE_SYSTEM_ROOT : '/';
const uid = dryRun && env.SALIENT_ENSURE_SYSTEM_UID ? Number(env.SALIENT_ENSURE_SYSTEM_UID) : (process.getuid?.() ?? -1);

const missing = needed.filter((n) => !existsSync(join(fsRoot, n.file)));
if (missing.length === 0) process.exit(0);
const pkgs = missing.map((n) => n.pkg);

/** Absolute path of an executable on PATH, or undefined. */
function which(name) {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, name);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // not here; keep looking
    }
  }
  return undefined;
}

const installCmd = ['apt-get', 'install', '-y', '--no-install-recommends', ...pkgs];
/** The command a person would type, with or without sudo. */
const manual = (sudo) => {
  const p = sudo ? 'sudo ' : '';
  return `${p}apt-get update && ${p}DEBIAN_FRONTEND=noninteractive ${installCmd.join(' ')}`;
};
const skipHint = 'or set SALIENT_SKIP_SYSTEM_DEPS=1 to skip this check (the tests that need them will then fail)';

function giveUp(why, command) {
  console.error(
    `salient: the tests need Debian packages that are missing: ${pkgs.join(', ')} ` +
      `(no ${missing.map((n) => n.file).join(', ')}).\n` +
      `salient: ${why}\n` +
      `salient: on Debian or Ubuntu, install them with:\n\n    ${command}\n\n` +
      `salient: then run npm test again, ${skipHint}.`,
  );
  process.exit(1);
}

const aptGet = which('apt-get');
if (!aptGet) {
  giveUp(
    "apt-get was not found on PATH, so they cannot be installed automatically; use your system's package manager.",
    manual(uid !== 0),
  );
}

/** Command prefix that runs apt-get with root rights: none as root, `sudo -n` if that works without a password. */
let prefix;
if (uid === 0) {
  prefix = [];
} else {
  const sudo = which('sudo');
  // -n: never prompt; a test run must not hang waiting for a password nobody will type.
  const probe = sudo ? spawnSync(sudo, ['-n', 'true'], { stdio: 'ignore' }) : undefined;
  if (!sudo || probe?.status !== 0) {
    giveUp(
      sudo
        ? 'This is not root and sudo needs a password (sudo -n true failed), so they cannot be installed automatically.'
        : 'This is not root and sudo was not found, so they cannot be installed automatically.',
      manual(true),
    );
  }
  prefix = [sudo, '-n'];
}

// `env` carries DEBIAN_FRONTEND through sudo, which otherwise drops the caller's environment.
const steps = [
  [...prefix, aptGet, 'update'],
  [...prefix, 'env', 'DEBIAN_FRONTEND=noninteractive', aptGet, ...installCmd.slice(1)],
];

if (dryRun) {
  console.log(`missing: ${pkgs.join(' ')}`);
  for (const s of steps) console.log(`run: ${s.join(' ')}`);
  process.exit(0);
}

console.error(`salient: the tests need Debian packages that are missing: ${pkgs.join(', ')}; installing them with apt-get (SALIENT_SKIP_SYSTEM_DEPS=1 skips this) ...`);
for (const [cmd, ...args] of steps) {
  // apt's output goes to stderr so progress shows without mixing into anything reading stdout.
  const r = spawnSync(cmd, args, { stdio: ['ignore', 2, 2], env: { ...env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (r.status !== 0) {
    const how = r.error ? r.error.message : r.signal ? `killed by ${r.signal}` : `exit code ${r.status}`;
    console.error(
      `salient: '${[cmd, ...args].join(' ')}' failed (${how}); see apt's output above ` +
        `(no network? another apt running? a package not in the configured sources?).\n` +
        `salient: fix that and run npm test again, or install them yourself: ${manual(uid !== 0)}\n` +
        `salient: ${skipHint}.`,
    );
    process.exit(1);
  }
}

const still = missing.filter((n) => !existsSync(join(fsRoot, n.file)));
if (still.length > 0) {
  console.error(
    `salient: apt-get reported success but ${still.map((n) => n.file).join(', ')} is still missing; ` +
      `check 'dpkg -L ${still.map((n) => n.pkg).join(' ')}' for where they went, ${skipHint}.`,
  );
  process.exit(1);
}
console.error(`salient: installed ${pkgs.join(', ')}.`);
