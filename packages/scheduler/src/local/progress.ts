/**
 * A progress renderer for {@link runLocalTournament}'s `onProgress`: a cli-progress bar on a TTY, a
 * plain line every few seconds otherwise (so CI logs stay readable). Games done/total, games/s, ETA
 * and the leading entrants by score %; under `stop: sprt` the test's LLR between its bounds, and
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

/** Entrants by score % (win 1, draw 1/2) over the decided matches, best first. */
export function leaders(outcomes: readonly MatchOutcome[], top: number): string {
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

function duration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '?';
  const s = Math.round(ms / 1000);
  return s >= 3600 ? `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m` : s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

/** An `onProgress` callback writing to `stream`, and `stop()` to end the bar (call it once the run ended). */
export function progressRenderer(o: ProgressRendererOptions = {}): { onProgress: (p: LocalProgress) => void; stop: () => void } {
  const stream = o.stream ?? process.stderr;
  const top = o.top ?? 3;
  const tty = !o.plain && stream.isTTY === true;
  let bar: SingleBar | undefined;
  let lastLine = Number.NEGATIVE_INFINITY;
  let last: LocalProgress | undefined;
  let stoppedSaid = false;
  const eta = (p: LocalProgress) => (p.stopped !== undefined ? (p.running ? 'finishing' : '0s') : duration(p.etaMs));
  const payload = (p: LocalProgress) => ({ rate: p.gamesPerSec.toFixed(2), eta: eta(p), leaders: [leaders(p.outcomes, top) || '-', stopPart(p)].filter(Boolean).join(' | ') });
  const line = (p: LocalProgress) =>
    `${p.tournamentId}: ${p.done}/${p.total} games (${p.skipped} recorded before), ${p.gamesPerSec.toFixed(2)} games/s, ETA ${eta(p)}; ${leaders(p.outcomes, top) || 'no results yet'}` +
    `${p.stop ? `; ${stopPart(p)}` : ''}\n`;
  return {
    onProgress: (p) => {
      last = p;
      if (tty) {
        if (!bar) {
          bar = new SingleBar({ stream, format: '{bar} {value}/{total} games | {rate} games/s | ETA {eta} | {leaders}', hideCursor: true, clearOnComplete: false });
          bar.start(p.total, p.done, payload(p));
        } else bar.update(p.done, payload(p));
      } else if (p.done === p.total || (p.stopped !== undefined && !stoppedSaid) || performance.now() - lastLine >= (o.everyMs ?? 5000)) {
        stoppedSaid ||= p.stopped !== undefined;
        lastLine = performance.now();
        stream.write(line(p));
      }
    },
    stop: () => {
      if (bar) bar.stop();
      else if (last && last.done !== last.total) stream.write(line(last));
    },
  };
}
