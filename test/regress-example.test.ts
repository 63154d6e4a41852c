/**
 * The example regression suites (Blitz, Empires & Alliances) and their committed baselines agree with the code: `salient regress` on
 * them exits 0, as the CI workflow in .github/workflows/regress.yml expects. A rules, pack or bot
 * change that moves a game fails here until the baseline is recorded again (see README).
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { salientEntry } from './support/salient-cli.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

it('examples/regress/blitz.yaml replays to its committed baseline', () => {
  const r = spawnSync(process.execPath, [...salientEntry(), 'regress', 'examples/regress/blitz.yaml', '--quiet', '--json'], { cwd: root, encoding: 'utf8' });
  expect(r.status, `${r.stderr}\nIf the change is intended, run: npx salient regress examples/regress/blitz.yaml --update-baseline`).toBe(0);
  const report = JSON.parse(r.stdout) as { games: number; unchanged: number; moved: boolean; compared: string };
  expect(report).toMatchObject({ games: 120, unchanged: 120, moved: false });
  expect(report.compared).toMatch(/state hash/);
}, 120_000);

it('examples/regress/empires-alliances.yaml replays to its committed baseline', () => {
  const r = spawnSync(process.execPath, [...salientEntry(), 'regress', 'examples/regress/empires-alliances.yaml', '--quiet', '--json'], { cwd: root, encoding: 'utf8' });
  expect(r.status, `${r.stderr}\nIf the change is intended, run: npx salient regress examples/regress/empires-alliances.yaml --update-baseline`).toBe(0);
  const report = JSON.parse(r.stdout) as { games: number; unchanged: number; moved: boolean; compared: string };
  expect(report).toMatchObject({ games: 2, unchanged: 2, moved: false });
  expect(report.compared).toMatch(/state hash/);
}, 120_000);
