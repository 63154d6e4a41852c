/**
 * Baseline files: a real suite run written and read back unchanged (gzipped or not), and every kind of
 * bad file refused with a message that says what is wrong and what to do, leaving nothing behind.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTournamentSpec } from '@salient/scheduler';
import { readBaseline, runSuite, toBaseline, writeBaseline, type SuiteRun } from '../src/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'salient-baseline-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let run: SuiteRun;

beforeAll(async () => {
  const spec = await parseTournamentSpec('id: unit\ngame: blitz\nscenarios: [A]\nentrants: [random, greedy]\ngamesPerPairing: 4\nsideSwap: true\nbaseSeed: 3\n', 'unit.yaml');
  run = await runSuite(spec);
}, 60_000);

describe('baseline files', () => {
  it('a suite run: its games in plan order, each with a record per impulse that holds its events', () => {
    expect(run.games).toHaveLength(4);
    expect(new Set(run.games.map((g) => g.key)).size).toBe(4);
    for (const g of run.games) {
      expect(g.impulseLog).toHaveLength(g.impulses);
      expect(g.impulseLog.at(-1)?.hash).toBe(g.finalHash);
      expect(g.impulseLog.some((i) => i.events.length > 0)).toBe(true);
    }
    expect(run.facts).toMatchObject({ game: 'blitz', pack: { id: 'approximation' } });
  });

  it('round-trips through .json and .json.gz, written atomically', () => {
    const b = toBaseline(run, new Date('2026-11-23T00:00:00Z'));
    for (const name of ['b.json', 'b.json.gz']) {
      const path = join(dir, name);
      writeBaseline(path, b);
      expect(readBaseline(path)).toEqual(b);
    }
    expect(readFileSync(join(dir, 'b.json.gz'))[0]).toBe(0x1f);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('refuses missing, foreign, damaged and truncated files with what to do', () => {
    const b = toBaseline(run);
    expect(() => readBaseline(join(dir, 'none.json.gz'))).toThrow(/No baseline at .*--update-baseline/);
    writeFileSync(join(dir, 'foreign.json'), JSON.stringify({ hello: 1 }));
    expect(() => readBaseline(join(dir, 'foreign.json'))).toThrow(/is not a Salient regression baseline/);
    writeFileSync(join(dir, 'text.json'), 'not json');
    expect(() => readBaseline(join(dir, 'text.json'))).toThrow(/not JSON/);
    const damaged = { ...b, games: [{ ...b.games[0], seed: 'seven' }] };
    writeFileSync(join(dir, 'damaged.json'), JSON.stringify(damaged));
    expect(() => readBaseline(join(dir, 'damaged.json'))).toThrow(/games\.0\.seed/);
    writeFileSync(join(dir, 'cut.json.gz'), gzipSync(JSON.stringify(b)).subarray(0, 200));
    expect(() => readBaseline(join(dir, 'cut.json.gz'))).toThrow(/not a readable gzip file/);
  });

  it('refuses runaway nesting, saying the limit and where', () => {
    const b = toBaseline(run);
    const deep = JSON.stringify({ ...b, facts: { ...b.facts, x: 0 } }).replace('"x":0', `"x":${'['.repeat(50_000)}${']'.repeat(50_000)}`);
    writeFileSync(join(dir, 'deep.json.gz'), gzipSync(deep));
    expect(() => readBaseline(join(dir, 'deep.json.gz'))).toThrow(/deep\.json\.gz:1:\d+: nested deeper than 64 levels at \$\.facts\.x\[0\].*Restore it/);
  });

  it('a write that cannot happen says so and leaves the old baseline as it was', () => {
    const path = join(dir, 'keep.json');
    writeBaseline(path, toBaseline(run));
    const before = readFileSync(path, 'utf8');
    writeFileSync(join(dir, 'file'), 'x');
    expect(() => writeBaseline(join(dir, 'file', 'sub.json'), toBaseline(run))).toThrow(/Cannot write the baseline/);
    expect(readFileSync(path, 'utf8')).toBe(before);
  });
});
