/**
 * The embedded store (chdb). One data directory per process, and vitest gives each test file its own
 * process, so this file owns its directory for all its tests.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTelemetry, type EmbeddedConfig } from '../src/index.ts';
import { storeContract } from './support/store-contract.ts';

// Made in beforeAll, not at import, so a run that filters these tests out leaves no directory behind.
let root = '';
const config = (): EmbeddedConfig => ({ kind: 'embedded', path: join(root, 'clickhouse'), spoolDir: join(root, 'spool') });

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'salient-embedded-'));
});
afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('embedded telemetry store', () => {
  storeContract(config);

  it('refuses to open the embedded store on a worker thread', async () => {
    const worker = new Worker(new URL('./fixtures/open-in-worker.mjs', import.meta.url), { workerData: config() });
    const answer = await new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    expect(answer).toMatchObject({ code: 'TELEMETRY_LOCKED', message: expect.stringContaining('can only be opened on the main thread') });
  });

  it('refuses a second data directory in the same process, naming the one it holds', async () => {
    const t = await openTelemetry(config());
    try {
      await expect(openTelemetry({ ...config(), path: join(root, 'other') })).rejects.toMatchObject({
        code: 'TELEMETRY_LOCKED',
        message: expect.stringContaining(`already has the embedded telemetry store at ${join(root, 'clickhouse')} open`),
      });
    } finally {
      await t.close();
    }
  });
});
