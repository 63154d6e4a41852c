/**
 * A regression report as text for a terminal or a CI log: the verdict first, then each changed game
 * with where it first diverged, then the distributions that shifted (and, with `all`, every test).
 */
import type { ChangedGame, RegressReport, SampleSummary, ShiftTest } from './compare.ts';

export interface FormatOptions {
  /** Changed games listed in full (default 10; the rest are counted). */
  maxGames?: number;
  /** List every test, not only the significant ones. */
  all?: boolean;
}

const p = (x: number): string => (x < 1e-4 ? x.toExponential(1) : x.toFixed(4));
const fix = (x: number): string => (Number.isInteger(x) ? String(x) : x.toFixed(2));

function summary(s: SampleSummary): string {
  if (s.kind === 'numbers') return `mean ${fix(s.mean)}, median ${fix(s.median)} (n ${s.n})`;
  return (
    Object.entries(s.counts)
      .sort(([, a], [, b]) => b - a)
      .map(([k, n]) => `${k}: ${n}`)
      .join(', ') + ` (n ${s.n})`
  );
}

function gameLines(g: ChangedGame): string[] {
  const d = g.divergence;
  const seats = Object.entries(g.seats)
    .map(([s, b]) => `${s} ${b}`)
    .join(' vs ');
  const out = [`- ${g.scenario}, seed ${g.seed}, ${seats}: ${g.result.baseline === g.result.current ? `still ${g.result.current}` : `${g.result.baseline} → ${g.result.current}`}; impulses ${g.impulses.baseline} → ${g.impulses.current}`];
  const at = d.at.baseline ?? d.at.current;
  if (!at) {
    out.push(`  every impulse agrees; the end differs (final hash ${g.finalHash.baseline.slice(0, 12)} → ${g.finalHash.current.slice(0, 12)})`);
    return out;
  }
  out.push(`  first diverges in impulse ${d.index + 1} (turn.impulse ${at}${d.at.current && d.at.current !== at ? `; now ${d.at.current}` : ''})`);
  if (d.choice) out.push(`  first different choice (#${d.choice.index + 1}): ${d.choice.baseline ?? '(none)'} → ${d.choice.current ?? '(none)'}`);
  if (d.event) {
    out.push(`  first different event (#${d.event.index + 1}):`);
    out.push(`    was: ${d.event.baseline ?? '(none)'}`);
    out.push(`    now: ${d.event.current ?? '(none)'}`);
  } else if (!d.choice) out.push('  same choices and events; the state after it differs');
  return out;
}

function testLine(t: ShiftTest): string {
  const shift = t.meanShift !== undefined ? `, mean ${t.meanShift >= 0 ? '+' : ''}${fix(t.meanShift)}` : '';
  return `- ${t.scenario} · ${t.feature}: ${t.test === 'chi-squared' ? 'χ²' : 'A–D'} p ${t.pFrom === 'at least 0.25' ? `≥ ${p(t.p)}` : p(t.p)}, adjusted ${t.pFrom === 'at least 0.25' ? '≥ ' : ''}${p(t.pAdjusted)}; ${t.effect.name} ${t.effect.value.toFixed(3)}${shift}\n    was ${summary(t.baseline)}\n    now ${summary(t.current)}`;
}

export function formatReport(r: RegressReport, o: FormatOptions = {}): string {
  const max = o.maxGames ?? 10;
  const lines: string[] = [];
  lines.push(`${r.moved ? 'MOVED' : 'OK'}: ${r.verdict}`);
  const f = r.current.facts;
  lines.push(`suite ${r.suite.id} · ${f.game} · pack ${f.pack.id} ${f.pack.version} (${f.pack.fidelity}) · rules ${f.rulesVersion} · ${r.games} games in ${(r.current.wallMs / 1000).toFixed(1)} s · baseline of ${r.baseline.createdAt}`);
  for (const n of r.notes) lines.push(`note: ${n}`);
  lines.push(`compared: the ${r.compared}`);
  if (r.changed.length) {
    lines.push('', `Changed games (${r.changed.length} of ${r.games}):`);
    for (const g of r.changed.slice(0, max)) lines.push(...gameLines(g));
    if (r.changed.length > max) lines.push(`… and ${r.changed.length - max} more (--json lists them all).`);
  }
  const shown = o.all ? r.tests : r.tests.filter((t) => t.significant);
  if (shown.length) {
    lines.push('', o.all ? `Distributions (${r.tests.length} tests, Benjamini–Hochberg q = ${r.q}; * = shifted):` : `Shifted distributions (adjusted p ≤ ${r.q}):`);
    for (const t of shown) lines.push((o.all && t.significant ? '*' : '') + testLine(t));
  } else if (r.tests.length) lines.push('', `No distribution shifted (${r.tests.length} tests, Benjamini–Hochberg q = ${r.q}).`);
  return lines.join('\n');
}
