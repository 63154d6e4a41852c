import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appendLedger, calibrationKey, LEDGER_VERSION, outcomeOf, readLedger, type LedgerCalibration, type LedgerMatch } from '../bench/strength-ledger.ts';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
const fileIn = () => {
  const d = mkdtempSync(join(tmpdir(), 'salient-ledger-'));
  dirs.push(d);
  return join(d, 'data', 'ledger.jsonl');
};

const match = (id: string, over: Partial<LedgerMatch> = {}): LedgerMatch => ({
  type: 'match',
  v: LEDGER_VERSION,
  leg: 'blitz/A',
  matchId: id,
  tournamentId: 't-1',
  scenario: 'A',
  seed: 3,
  kind: 'completed',
  sides: { Axis: 'win', Allies: 'loss' },
  entrants: { Axis: 'plan', Allies: 'mcts' },
  decisions: 90,
  thinkMs: { Axis: 900, Allies: 1100 },
  bySide: { Axis: 40, Allies: 50 },
  paris: true,
  machine: '2026-11-30|v20.20.2|AMD EPYC',
  ...over,
});

const calibration = (chosen: number): LedgerCalibration => ({
  type: 'calibration',
  v: LEDGER_VERSION,
  leg: 'blitz/A',
  tuned: 'mcts:iterations=300,rollout=0',
  target: 'plan',
  chosen,
  passes: [{ iterations: 300, msPerDecision: 28.2 }],
  targetMsPerDecision: 20.1,
  games: 6,
  machine: '2026-11-30|v20.20.2|AMD EPYC',
});

describe('the strength ladder ledger', () => {
  it('reads back what was appended, creating the file and its folder; a missing file is an empty ledger', () => {
    const file = fileIn();
    const empty = readLedger(file);
    expect(empty.matches.size).toBe(0);
    appendLedger(empty, [match('m1'), calibration(261)]);
    appendLedger(empty, [match('m2', { sides: { Axis: 'loss', Allies: 'win' }, paris: false }), calibration(260)]);
    const again = readLedger(file);
    expect([...again.matches.keys()]).toEqual(['m1', 'm2']);
    expect(again.matches.get('m2')?.sides).toEqual({ Axis: 'loss', Allies: 'win' });
    // The last calibration of a leg and pair of bots is the one that stands.
    expect(again.calibrations.get(calibrationKey('blitz/A', 'mcts:iterations=300,rollout=0', 'plan'))?.chosen).toBe(260);
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(4);
  });

  it('keeps the decisions a calibration game could last, and refuses a cap that is not a count', () => {
    const file = fileIn();
    appendLedger(readLedger(file), [{ ...calibration(260), cap: 6000 }]);
    expect(readLedger(file).calibrations.get(calibrationKey('blitz/A', 'mcts:iterations=300,rollout=0', 'plan'))?.cap).toBe(6000);
    writeFileSync(file, JSON.stringify({ ...calibration(260), cap: '600' }) + '\n');
    expect(() => readLedger(file)).toThrow(/:1: calibration cap "600" is not a positive whole number of decisions/);
  });

  it('refuses a line it cannot read, naming the file and line and what to do', () => {
    const file = fileIn();
    appendLedger(readLedger(file), [match('m1')]);
    writeFileSync(file, readFileSync(file, 'utf8') + '{"type":"match"\n');
    expect(() => readLedger(file)).toThrow(/ledger\.jsonl:2: not a JSON line.*fix or delete the line/);
    writeFileSync(file, JSON.stringify({ ...match('m1'), v: 7 }) + '\n');
    expect(() => readLedger(file)).toThrow(/:1: ledger version 7, this bench reads version 1/);
    writeFileSync(file, JSON.stringify({ type: 'match', v: LEDGER_VERSION, leg: 'blitz/A' }) + '\n');
    expect(() => readLedger(file)).toThrow(/:1: neither a match .* nor a calibration/);
  });

  it('gives the scheduler outcome the report counts', () => {
    const o = outcomeOf(match('m9', { kind: 'adjudicated', sides: { Axis: 'draw', Allies: 'draw' } }), 4);
    expect(o).toMatchObject({ matchId: 'm9', tournamentId: 't-1', index: 4, kind: 'adjudicated', seed: 3, decisions: 90 });
    expect(o.sides).toEqual({ Axis: 'draw', Allies: 'draw' });
    expect(o.entrants).toEqual({ Axis: 'plan', Allies: 'mcts' });
  });
});
