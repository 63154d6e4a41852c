/**
 * `salient serve` end to end: a child process on its own embedded store, on a free port; it says its
 * URL, answers over real HTTP, refuses writes without tokens, serves its store to a tournament run and
 * a report from other processes (the run shows live), and stops cleanly on SIGTERM.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { killTracked, spawnTracked } from './children.ts';
import { salientEntry } from '../../../test/support/salient-cli.ts';

const cli = join(dirname(fileURLToPath(import.meta.url)), '..');
const tmp = mkdtempSync(join(tmpdir(), 'salient-serve-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
// A test that fails before its own kill leaves no serve or tournament child running.
afterEach(killTracked, 30_000);

describe('salient serve', () => {
  it('serves the API on the embedded store, refuses writes without tokens, and stops on SIGTERM', async () => {
    const env = { ...process.env, NO_COLOR: '1', SALIENT_CLICKHOUSE_PATH: join(tmp, 'clickhouse'), SALIENT_SPOOL_DIR: join(tmp, 'spool'), SALIENT_API_TOKENS: '' };
    const child = spawnTracked(process.execPath, [...salientEntry(), 'serve', '--port', '0', '--log', 'silent'], { cwd: cli, env });
    let stderr = '';
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
        const m = /Salient API on (http:\/\/\S+\/) /.exec(stderr);
        if (m) resolve(m[1] as string);
      });
      child.on('exit', (code) => reject(new Error(`serve exited (${code}) before listening:\n${stderr}`)));
    });
    expect(stderr).toMatch(/Writes: off \(set SALIENT_API_TOKENS\)/);
    const health = await fetch(`${url}health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', clickhouse: { ok: true }, redis: { configured: false } });
    const matches = await fetch(`${url}api/matches`);
    expect(await matches.json()).toMatchObject({ total: 0, matches: [] });
    const write = await fetch(`${url}api/tournaments`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ spec: 'id: x' }) });
    expect(write.status).toBe(403);

    // The store is serve's; a local tournament from another process writes through serve, and the
    // API shows it while it runs.
    const spec = join(tmp, 'live.yaml');
    writeFileSync(spec, 'id: live\ngame: blitz\nscenarios: [A]\nentrants: [{ name: paced, bot: "crash:after=0,sleep=10" }, random]\ngamesPerPairing: 8\n');
    const run = spawnTracked(process.execPath, [...salientEntry(), 'tournament', 'run', spec, '--threads', '1', '--quiet'], { cwd: cli, env });
    let runErr = '';
    run.stderr.on('data', (d: Buffer) => (runErr += d.toString()));
    const ran = new Promise<number | null>((resolve) => run.on('exit', resolve));
    let seenLive = false;
    for (let i = 0; i < 300 && run.exitCode === null; i++) {
      const list = (await (await fetch(`${url}api/tournaments`)).json()) as { tournaments: { id: string; matches: number; state?: string }[] };
      const live = list.tournaments.find((t) => t.id === 'live');
      if (live && live.matches > 0 && live.matches < 8 && run.exitCode === null) seenLive = true;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await ran, runErr).toBe(0);
    expect(seenLive).toBe(true);
    const after = (await (await fetch(`${url}api/tournaments/live`)).json()) as { tournament: { matches: number } };
    expect(after.tournament.matches).toBe(8);
    // A report from a third process reads through serve as well.
    const report = spawnSync(process.execPath, [...salientEntry(), 'report', '--json'], { cwd: cli, env, encoding: 'utf8' });
    expect(report.status, report.stderr).toBe(0);
    expect(report.stdout).toContain('"scenario": "A"');

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 120_000);

  it('says so when the port is taken', async () => {
    const { createServer } = await import('node:net');
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    try {
      const env = { ...process.env, NO_COLOR: '1', SALIENT_CLICKHOUSE_PATH: join(tmp, 'clickhouse2'), SALIENT_SPOOL_DIR: join(tmp, 'spool2') };
      const child = spawnTracked(process.execPath, [...salientEntry(), 'serve', '--port', String(port), '--log', 'silent'], { cwd: cli, env });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code).not.toBe(0);
      expect(stderr).toContain(`Port ${port} on 127.0.0.1 is taken`);
    } finally {
      blocker.close();
    }
  }, 60_000);
});
