/**
 * Standings counted from match outcomes: per entrant, results overall and per side, plus what went
 * wrong. Completed, adjudicated and forfeited matches count (win 1, draw 1/2, loss 0; a forfeit is a
 * loss for the side that forfeited); `error` and `cancelled` matches count for no one's score but are
 * listed for each entrant that was seated in them.
 */
import type { MatchOutcome } from './types.ts';

export interface SideRecord {
  games: number;
  wins: number;
  losses: number;
  draws: number;
}

export interface StandingsRow extends SideRecord {
  name: string;
  /** Wins + draws / 2. */
  score: number;
  /** 100 * score / games; null before any counted game. */
  scorePct: number | null;
  /** Side id -> results when playing that side. */
  bySide: Record<string, SideRecord>;
  /** Matches this entrant forfeited (a bot crash, timeout or illegal answer). */
  forfeits: number;
  /** Matches this entrant was seated in that ended in an engine error / were cancelled. */
  errors: number;
  cancelled: number;
  /** Mean decisions and impulses of the counted games; null before any. */
  meanDecisions: number | null;
  meanImpulses: number | null;
}

const COUNTED = new Set<MatchOutcome['kind']>(['completed', 'adjudicated', 'forfeit']);

/**
 * One row per entrant (those in `entrants`, then any others seen in `outcomes`, in order of first
 * appearance), sorted by score (descending), then name.
 */
export function standings(outcomes: readonly MatchOutcome[], entrants: readonly string[]): StandingsRow[] {
  const rows = new Map<string, StandingsRow & { decisionSum: number; impulseSum: number }>();
  const row = (name: string) => {
    let r = rows.get(name);
    if (!r) {
      r = {
        name, games: 0, wins: 0, losses: 0, draws: 0, score: 0, scorePct: null, bySide: {}, forfeits: 0,
        errors: 0, cancelled: 0, meanDecisions: null, meanImpulses: null, decisionSum: 0, impulseSum: 0,
      };
      rows.set(name, r);
    }
    return r;
  };
  for (const name of entrants) row(name);

  for (const o of outcomes) {
    const forfeiter = o.kind === 'forfeit' ? forfeitingSide(o) : undefined;
    for (const [side, name] of Object.entries(o.entrants)) {
      const r = row(name);
      if (o.kind === 'error') r.errors++;
      else if (o.kind === 'cancelled') r.cancelled++;
      if (!COUNTED.has(o.kind)) continue;
      const result = o.sides[side];
      if (result !== 'win' && result !== 'loss' && result !== 'draw') continue;
      const bySide = (r.bySide[side] ??= { games: 0, wins: 0, losses: 0, draws: 0 });
      for (const rec of [r, bySide]) {
        rec.games++;
        if (result === 'win') rec.wins++;
        else if (result === 'loss') rec.losses++;
        else rec.draws++;
      }
      if (side === forfeiter) r.forfeits++;
      r.decisionSum += o.decisions;
      r.impulseSum += o.impulses;
    }
  }

  const out: StandingsRow[] = [];
  for (const { decisionSum, impulseSum, ...r } of rows.values()) {
    r.score = r.wins + r.draws / 2;
    if (r.games > 0) {
      r.scorePct = (100 * r.score) / r.games;
      r.meanDecisions = decisionSum / r.games;
      r.meanImpulses = impulseSum / r.games;
    }
    out.push(r);
  }
  return out.sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * The side that forfeited: the seat named in the detail (`<seat> forfeits (...)`, as `outcomeOf`
 * writes it) when it is one of the match's sides, else the one losing side.
 */
function forfeitingSide(o: MatchOutcome): string | undefined {
  const named = /^(\S+) forfeits/.exec(o.detail ?? '')?.[1];
  if (named !== undefined && Object.hasOwn(o.entrants, named)) return named;
  const losers = Object.keys(o.sides).filter((s) => o.sides[s] === 'loss');
  return losers.length === 1 ? losers[0] : undefined;
}

/** A plain aligned text table of `rows`, for logs (the CLI draws its own). */
export function standingsText(rows: readonly StandingsRow[]): string {
  const sides = [...new Set(rows.flatMap((r) => Object.keys(r.bySide)))].sort();
  const num = (x: number | null, digits = 0) => (x === null ? '-' : x.toFixed(digits));
  const header = ['#', 'Entrant', 'Games', 'W', 'L', 'D', 'Score', 'Score%', ...sides.map((s) => `${s} W-L-D`), 'Forfeits', 'Errors', 'Cancelled', 'Decisions', 'Impulses'];
  const body = rows.map((r, i) => [
    String(i + 1),
    r.name,
    String(r.games),
    String(r.wins),
    String(r.losses),
    String(r.draws),
    num(r.score, 1),
    num(r.scorePct, 1),
    ...sides.map((s) => {
      const b = r.bySide[s];
      return b ? `${b.wins}-${b.losses}-${b.draws}` : '-';
    }),
    String(r.forfeits),
    String(r.errors),
    String(r.cancelled),
    num(r.meanDecisions, 1),
    num(r.meanImpulses, 1),
  ]);
  const widths = header.map((h, c) => Math.max(h.length, ...body.map((line) => (line[c] ?? '').length)));
  // Names left-aligned, everything else right-aligned.
  const fmt = (cells: readonly string[]) =>
    cells.map((cell, c) => (c === 1 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0))).join('  ').trimEnd();
  return [fmt(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(fmt)].join('\n');
}
