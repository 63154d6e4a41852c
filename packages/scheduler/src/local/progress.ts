/**
 * Progress on stderr: {@link barOrLines} for anything counted in games (a cli-progress bar on a TTY, a
 * plain line every few seconds otherwise, so CI logs stay readable), and on it the renderer for
 * {@link runLocalTournament}'s `onProgress`. Games done/total, games/s, ETA
 * and the leading entrants by score % (a sweep's levels: wins by side); under `stop: sprt` the test's LLR between its bounds, and
 * once it decided, that it did (the ETA is then for the matches still running).
 */
import { SingleBar } from 'cli-progress';
import type { MatchOutcome } from '../types.ts';
import { twoDecimals } from '../stop-rule.ts';
import type { LocalProgress } from './local-pool.ts';

/** The stop rule's part of a progress line: `LLR 1.23 (-2.94, 2.94), 40 pairs`, or '' without an SPRT. */
export function stopPart(p: Pick<LocalProgress, 'stop' | 'stopped'>): string {
  const s = p.stop;
  if (!s) return '';
  const state = s.state === 'continue' ? '' : `, ${s.state} accepted`;
  return `LLR ${twoDecimals(s.llr)} (${twoDecimals(s.lower)}, ${twoDecimals(s.upper)}), ${s.pairs} pairs${state}${p.stopped !== undefined ? ', stopped' : ''}`;
}

export interface ProgressRendererOptions {
  /** Where to write (default process.stderr). */
  stream?: NodeJS.WriteStream;
  /** Entrants shown (default 3). */
  top?: number;
  /** Between plain lines, ms (default 5000). */
  everyMs?: number;
  /** Force the plain lines even on a TTY. */
  plain?: boolean;
}

/**
 * Entrants by score % (win 1, draw 1/2) over the decided matches, best first. When every match so far
 * is an entrant against itself (a strength sweep's levels), a score says nothing (always 50%): each
 * entrant's wins by side instead, levels in numeric order (`plan evals=25: Allies 12, Axis 3`).
 */
export function leaders(outcomes: readonly MatchOutcome[], top: number): string {
  const decided = outcomes.filter((o) => Object.keys(o.sides).length > 0);
  if (decided.length && decided.every((o) => new Set(Object.values(o.entrants)).size === 1)) return sideWins(decided);
  const t = new Map<string, { games: number; score: number }>();
  for (const o of outcomes) {
    for (const [side, result] of Object.entries(o.sides)) {
      const name = o.entrants[side];
      if (name === undefined) continue;
      const e = t.get(name) ?? { games: 0, score: 0 };
      e.games++;
      e.score += result === 'win' ? 1 : result === 'draw' ? 0.5 : 0;
      t.set(name, e);
    }
  }
  return [...t]
    .map(([name, e]) => ({ name, pct: e.games ? (100 * e.score) / e.games : 0 }))
    .sort((a, b) => b.pct - a.pct || a.name.localeCompare(b.name))
    .slice(0, top)
    .map((e) => `${e.name} ${e.pct.toFixed(1)}%`)
    .join(', ');
}

/** Each self-play entrant's wins by side, and draws when there were any. */
function sideWins(outcomes: readonly MatchOutcome[]): string {
  const t = new Map<string, { sides: Map<string, number>; draws: number }>();
  for (const o of outcomes) {
    const name = Object.values(o.entrants)[0]!;
    const e = t.get(name) ?? { sides: new Map<string, number>(), draws: 0 };
    for (const [side, result] of Object.entries(o.sides)) {
      if (!e.sides.has(side)) e.sides.set(side, 0);
      if (result === 'win') e.sides.set(side, e.sides.get(side)! + 1);
    }
    if (Object.values(o.sides).every((r) => r === 'draw')) e.draws++;
    t.set(name, e);
  }
  return [...t]
    .sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))
    .map(([name, e]) => {
      const sides = [...e.sides].sort(([a], [b]) => a.localeCompare(b)).map(([side, n]) => `${side} ${n}`);
      return `${name}: ${sides.join(', ')}${e.draws ? `, ${e.draws} drawn` : ''}`;
    })
    .join('; ');
}

/** A duration as `42s`, `3m05s` or `1h02m`; `?` when unknown. */
export function duration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '?';
  const s = Math.round(ms / 1000);
  return s >= 3600 ? `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m` : s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

/** How a long run shows its progress: see {@link barOrLines}. */
export interface BarOrLinesOptions<P> {
  /** Where to write (default process.stderr). */
  stream?: NodeJS.WriteStream;
  /** Between plain lines, ms (default 5000). */
  everyMs?: number;
  /** Force the plain lines even on a TTY. */
  plain?: boolean;
  /** The bar's cli-progress format: `{bar}`, `{value}`, `{total}` and the keys `payload` gives (not `eta`, `duration` or `percentage`, which cli-progress fills itself). */
  format: string;
  payload: (p: P) => Record<string, string>;
  /** One plain line, newline included. */
  line: (p: P) => string;
  /** A line at once, however soon after the last (something happened that is worth saying now). */
  urgent?: (p: P) => boolean;
}

/**
 * Progress of anything counted in done/total, on stderr by default: a cli-progress bar on a terminal,
 * else a plain line every few seconds and at the end, so a log (CI, a file) stays readable. Call
 * `stop()` once the run ended, whether it finished or not.
 */
export function barOrLines<P extends { done: number; total: number }>(o: BarOrLinesOptions<P>): { onProgress: (p: P) => void; stop: () => void } {
  const stream = o.stream ?? process.stderr;
  const tty = !o.plain && stream.isTTY === true;
  let bar: SingleBar | undefined;
  let lastLine = Number.NEGATIVE_INFINITY;
  let last: P | undefined;
  return {
    onProgress: (p) => {
      last = p;
      if (tty) {
        if (!bar) {
          bar = new SingleBar({ stream, format: o.format, hideCursor: true, clearOnComplete: false });
          bar.start(p.total, p.done, o.payload(p));
        } else bar.update(p.done, o.payload(p));
      } else if (p.done === p.total || o.urgent?.(p) || performance.now() - lastLine >= (o.everyMs ?? 5000)) {
        lastLine = performance.now();
        stream.write(o.line(p));
      }
    },
    stop: () => {
      if (bar) bar.stop();
      else if (last && last.done !== last.total) stream.write(o.line(last));
    },
  };
}

/** An `onProgress` callback writing to `stream`, and `stop()` to end the bar (call it once the run ended). */
export function progressRenderer(o: ProgressRendererOptions = {}): { onProgress: (p: LocalProgress) => void; stop: () => void } {
  const top = o.top ?? 3;
  let stoppedSaid = false;
  const eta = (p: LocalProgress) => (p.stopped !== undefined ? (p.running ? 'finishing' : '0s') : duration(p.etaMs));
  return barOrLines<LocalProgress>({
    ...(o.stream ? { stream: o.stream } : {}),
    ...(o.everyMs !== undefined ? { everyMs: o.everyMs } : {}),
    ...(o.plain !== undefined ? { plain: o.plain } : {}),
    // Not `{eta}`: cli-progress fills that token itself (bare seconds), over the payload's.
    format: '{bar} {value}/{total} games | {rate} games/s | ETA {left} | {leaders}',
    payload: (p) => ({ rate: p.gamesPerSec.toFixed(2), left: eta(p), leaders: [leaders(p.outcomes, top) || '-', stopPart(p)].filter(Boolean).join(' | ') }),
    line: (p) =>
      `${p.tournamentId}: ${p.done}/${p.total} games (${p.skipped} recorded before), ${p.gamesPerSec.toFixed(2)} games/s, ETA ${eta(p)}; ${leaders(p.outcomes, top) || 'no results yet'}` +
      `${p.stop ? `; ${stopPart(p)}` : ''}\n`,
    // The stop rule deciding is said at once, and once.
    urgent: (p) => p.stopped !== undefined && !stoppedSaid && (stoppedSaid = true),
  });
}
