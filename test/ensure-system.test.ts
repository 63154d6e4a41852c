/**
 * scripts/ensure-system.mjs decides right what to install and how: run in dry-run mode against a fake
 * file tree (which binaries exist) and a fake PATH (whether apt-get and sudo exist, and whether sudo
 * works without a password), as root and as an ordinary user.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const script = join(dirname(fileURLToPath(import.meta.url)), '..', 'scripts', 'ensure-system.mjs');
const tmp = mkdtempSync(join(tmpdir(), 'salient-ensure-system-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let n = 0;

interface Machine {
  /** Binaries present, as absolute paths in the fake tree. */
  files: string[];
  /** Executables on the fake PATH, with the shell body each runs. */
  path: Record<string, string>;
  uid: number;
  skip?: boolean;
}

function run(m: Machine) {
  const dir = join(tmp, String(n++));
  const root = join(dir, 'root');
  const bin = join(dir, 'bin');
  mkdirSync(bin, { recursive: true });
  for (const f of m.files) {
    mkdirSync(join(root, dirname(f)), { recursive: true });
    writeFileSync(join(root, f), '');
  }
  for (const [name, body] of Object.entries(m.path)) {
    writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  }
  const r = spawnSync(process.execPath, [script], {
    encoding: 'utf8',
    env: {
      PATH: bin,
      SALIENT_ENSURE_SYSTEM_DRYRUN: '1',
      SALIENT_ENSURE_SYSTEM_ROOT: root,
      SALIENT_ENSURE_SYSTEM_UID: String(m.uid),
      ...(m.skip ? { SALIENT_SKIP_SYSTEM_DEPS: '1' } : {}),
    },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, bin };
}

const clickhouse = '/usr/sbin/clickhouse-server';
const redis = '/usr/bin/redis-server';
const chromium = '/usr/bin/chromium';
const python = '/usr/bin/python3';
const exporter = '/usr/bin/prometheus-redis-exporter';
const apt = { 'apt-get': 'exit 0' };

describe('ensure-system', () => {
  it('does nothing when every binary is present', () => {
    const r = run({ files: [clickhouse, redis, chromium, python, exporter], path: apt, uid: 0 });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('');
  });

  it('as root, plans apt-get update then an install of only the missing packages', () => {
    const r = run({ files: [clickhouse, exporter], path: apt, uid: 0 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual([
      'missing: redis-server chromium python3',
      `run: ${r.bin}/apt-get update`,
      `run: env DEBIAN_FRONTEND=noninteractive ${r.bin}/apt-get install -y --no-install-recommends redis-server chromium python3`,
    ]);
  });

  it('as a user with password-less sudo, plans the same through sudo -n', () => {
    const r = run({ files: [clickhouse, redis, python, exporter], path: { ...apt, sudo: 'exit 0' }, uid: 1000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual([
      'missing: chromium',
      `run: ${r.bin}/sudo -n ${r.bin}/apt-get update`,
      `run: ${r.bin}/sudo -n env DEBIAN_FRONTEND=noninteractive ${r.bin}/apt-get install -y --no-install-recommends chromium`,
    ]);
  });

  it.each([
    ['no sudo', apt, /sudo was not found/],
    ['sudo that wants a password', { ...apt, sudo: 'exit 1' }, /sudo needs a password/],
  ])('as a user with %s, names the missing packages and the command, and fails', (_, path, why) => {
    const r = run({ files: [redis, python, exporter], path, uid: 1000 });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/missing: clickhouse-server, chromium \(no \/usr\/sbin\/clickhouse-server, \/usr\/bin\/chromium\)/);
    expect(r.stderr).toMatch(why);
    expect(r.stderr).toContain(
      'sudo apt-get update && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends clickhouse-server chromium',
    );
    expect(r.stderr).toContain('SALIENT_SKIP_SYSTEM_DEPS=1');
  });

  it('plans prometheus-redis-exporter when it is missing (the operations dashboard test runs it)', () => {
    const r = run({ files: [clickhouse, redis, chromium, python], path: apt, uid: 0 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n')[0]).toBe('missing: prometheus-redis-exporter');
  });

  it('as root without apt-get, says so and fails', () => {
    const r = run({ files: [clickhouse, redis, exporter], path: {}, uid: 0 });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/apt-get was not found on PATH/);
    expect(r.stderr).toContain('apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium');
  });

  it('SALIENT_SKIP_SYSTEM_DEPS=1 skips the check', () => {
    const r = run({ files: [], path: {}, uid: 1000, skip: true });
    expect(r.status).toBe(0);
    expect(r.stdout + r.stderr).toBe('');
  });
});
