/**
 * An embedded store held by another process: the error names that process. Its own test file, because
 * this process must not have opened another embedded store first (one per process).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTelemetry } from '../src/index.ts';

// Made in beforeAll, not at import, so a run that filters these tests out leaves no directory behind.
let root = '';
let path = '';
const holder = fileURLToPath(new URL('./fixtures/hold-store.ts', import.meta.url));
let child: ChildProcess | undefined;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'salient-lock-'));
  path = join(root, 'clickhouse');
});

afterAll(async () => {
  await stopChild();
  if (root) rmSync(root, { recursive: true, force: true });
});

async function stopChild(): Promise<void> {
  const c = child;
  if (!c || c.exitCode !== null || c.signalCode !== null) return;
  const gone = new Promise((resolve) => c.once('exit', resolve));
  c.kill('SIGKILL');
  await gone;
}

/** Start the holder and wait until it says the store is open. */
function holdStore(): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, ['--import', 'tsx', holder, path], { stdio: ['ignore', 'pipe', 'pipe'] });
    child = c;
    let err = '';
    c.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    c.stdout?.on('data', (d: Buffer) => {
      if (d.toString().includes('ready')) resolve(c);
    });
    c.once('exit', (code) => reject(new Error(`the holder exited (${code}) before opening the store:\n${err}`)));
  });
}

describe('embedded store locked by another process', () => {
  it('names the process holding it and says what to do; opens once that process is gone', async () => {
    const c = await holdStore();
    const config = { kind: 'embedded' as const, path, spoolDir: join(root, 'spool') };
    await expect(openTelemetry(config)).rejects.toMatchObject({
      code: 'TELEMETRY_LOCKED',
      message: expect.stringMatching(
        new RegExp(`^The embedded telemetry store at ${path} is in use by process ${c.pid} \\(.*hold-store\\.ts.*\\)\\. Stop that process, or point SALIENT_CLICKHOUSE_URL at a ClickHouse server\\.$`),
      ),
    });
    await stopChild();
    const t = await openTelemetry(config);
    expect(t.mode).toBe('embedded');
    await t.close();
  });
});
