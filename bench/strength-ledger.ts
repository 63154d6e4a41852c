/**
 * The strength ladder's ledger: every match the ladder has played, one JSON line each, and each
 * scenario's calibration, in a file kept in the repository (bench/data/strength-ledger.jsonl).
 *
 * Why: the ladder the issue asks for (200 games per pairing on four scenarios) is days of CPU on a
 * 2-core machine, more than one machine's session, and the embedded store a run keeps (BENCH_STORE)
 * lives on that machine. A match id is a hash of everything that decides the game (tournament,
 * rules version, pack content hash, seed, seats' bot specs and versions: scheduler/plan.ts), and the
 * same id gives the same game on any machine, so an outcome recorded anywhere stands for the match
 * everywhere. A run skips the matches the ledger holds, plays the rest, and appends them; the report
 * counts both. The calibration is recorded for the same reason: MCTS's iterations are part of its bot
 * spec, hence of the match ids, so a later run must play the iterations the first one chose rather
 * than measure its own (which would start a new set of matches).
 *
 * What a line cannot carry over is time: think times were measured on the machine that played the
 * match, and each line says which machine that was.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { MatchOutcome } from '@salient/scheduler';

/** Ledger format version: a line of another version is refused, not misread. */
export const LEDGER_VERSION = 1;

/** One played match: its outcome as the scheduler reports it, and what the report reads off its replay. */
export interface LedgerMatch {
  type: 'match';
  v: number;
  /** `game/scenario`, as the bench keys a leg (`blitz/A`). */
  leg: string;
  matchId: string;
  tournamentId: string;
  scenario: string;
  seed: number;
  kind: MatchOutcome['kind'];
  /** Side -> win, loss or draw (empty for error and cancelled). */
  sides: Record<string, string>;
  /** Side -> entrant name. */
  entrants: Record<string, string>;
  decisions: number;
  /** Side -> the runner's think time in ms, on the machine that played it. */
  thinkMs: Record<string, number>;
  /** Side -> decisions that side's powers made. */
  bySide: Record<string, number>;
  /** Blitz! A: whether Germany held Paris after any step (absent elsewhere). */
  paris?: boolean;
  /** `date|node|cpu` of the machine that played it. */
  machine: string;
}

/** The iterations a leg's tuned bot plays, as a calibration chose them (or as they were given). */
export interface LedgerCalibration {
  type: 'calibration';
  v: number;
  leg: string;
  /** The tuned and target bots' specs before calibration (a change to either calls for a new one). */
  tuned: string;
  target: string;
  chosen: number;
  /** Passes measured: iterations and CPU ms per decision; the target's CPU ms per decision. */
  passes: { iterations: number; msPerDecision: number }[];
  targetMsPerDecision: number;
  games: number;
  /** Decisions a calibration game could last (BENCH_CALIBRATION_CAP); absent on lines written before it was kept, and when the iterations were given. */
  cap?: number;
  machine: string;
}

export type LedgerEntry = LedgerMatch | LedgerCalibration;

export interface Ledger {
  file: string;
  matches: Map<string, LedgerMatch>;
  /** By {@link calibrationKey}; the last line for a key wins. */
  calibrations: Map<string, LedgerCalibration>;
}

export const calibrationKey = (leg: string, tuned: string, target: string) => `${leg}|${tuned}|${target}`;

/** Read `file` (a missing file is an empty ledger); a line that is not a ledger entry is an error naming it. */
export function readLedger(file: string): Ledger {
  const ledger: Ledger = { file, matches: new Map(), calibrations: new Map() };
  if (!existsSync(file)) return ledger;
  const lines = readFileSync(file, 'utf8').split('\n');
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    const where = `${file}:${i + 1}`;
    let e: unknown;
    try {
      e = JSON.parse(line);
    } catch {
      throw new Error(`${where}: not a JSON line; the ledger holds one JSON object per line (fix or delete the line; a lost line only means its match is played again).`);
    }
    const entry = e as Partial<LedgerEntry>;
    if (entry.v !== LEDGER_VERSION) throw new Error(`${where}: ledger version ${String(entry.v)}, this bench reads version ${LEDGER_VERSION}; move the file aside to start a new ledger.`);
    if (entry.type === 'match' && typeof entry.matchId === 'string' && typeof entry.leg === 'string' && entry.sides && entry.entrants) {
      ledger.matches.set(entry.matchId, entry as LedgerMatch);
    } else if (entry.type === 'calibration' && typeof entry.leg === 'string' && Number.isSafeInteger(entry.chosen)) {
      const c = entry as LedgerCalibration;
      if (c.cap !== undefined && !(Number.isSafeInteger(c.cap) && c.cap > 0)) {
        throw new Error(`${where}: calibration cap ${JSON.stringify(c.cap)} is not a positive whole number of decisions; fix it or drop the field (the report then says the cap is not known).`);
      }
      ledger.calibrations.set(calibrationKey(c.leg, c.tuned, c.target), c);
    } else {
      throw new Error(`${where}: neither a match (type, leg, matchId, sides, entrants) nor a calibration (type, leg, chosen); fix or delete the line.`);
    }
  });
  return ledger;
}

/** Append entries to the ledger's file (created with its folder when missing) and to `ledger`. */
export function appendLedger(ledger: Ledger, entries: readonly LedgerEntry[]): void {
  if (!entries.length) return;
  mkdirSync(dirname(ledger.file), { recursive: true });
  appendFileSync(ledger.file, entries.map((e) => JSON.stringify(e)).join('\n') + '\n');
  for (const e of entries) {
    if (e.type === 'match') ledger.matches.set(e.matchId, e);
    else ledger.calibrations.set(calibrationKey(e.leg, e.tuned, e.target), e);
  }
}

/** The scheduler's outcome of a ledger match, as the report counts it (fields the ledger does not keep are zero). */
export function outcomeOf(m: LedgerMatch, index: number): MatchOutcome {
  return {
    matchId: m.matchId,
    tournamentId: m.tournamentId,
    pairId: '',
    index,
    scenario: m.scenario,
    seed: m.seed,
    kind: m.kind,
    sides: m.sides,
    entrants: m.entrants,
    scores: {},
    decisions: m.decisions,
    impulses: 0,
    wallMs: 0,
  };
}
