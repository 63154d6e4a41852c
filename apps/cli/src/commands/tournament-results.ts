/**
 * A tournament's results in a terminal, the way cutechess-cli and fastchess users read them: standings,
 * per pairing W/L/D with Elo ± (95%), LOS and draw ratio (and the pentanomial with side swap), a
 * cross-table, standings by scenario and side; and a tournament's state and counts (`status`).
 */
import { sprtText, type PairingResult, type StandingsRow, type TournamentResults } from '@salient/scheduler';
import type { TournamentOverview } from '@salient/scheduler/overview';
import { table } from '../output.ts';

const pct = (x: number | null) => (x === null ? '-' : `${x.toFixed(1)}%`);
const wld = (r: { wins: number; losses: number; draws: number }) => `${r.wins}/${r.losses}/${r.draws}`;
const half = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(1));
const signed = (x: number) => {
  const t = x.toFixed(1);
  return t.startsWith('-') && Number(t) !== 0 ? t : `+${t.replace('-', '')}`;
};

/** The standings as a table: entrant, games, W/L/D, score %, W/L/D by side, forfeits, errors. */
export function standingsTable(rows: readonly StandingsRow[]): string {
  const sides = [...new Set(rows.flatMap((r) => Object.keys(r.bySide)))].sort();
  return table(
    ['#', 'entrant', 'games', 'W/L/D', 'score %', ...sides.map((s) => `${s} W/L/D`), 'forfeits', 'errors'],
    rows.map((r, i) => [
      String(i + 1),
      r.name,
      String(r.games),
      wld(r),
      pct(r.scorePct),
      ...sides.map((s) => (r.bySide[s] ? wld(r.bySide[s]) : '-')),
      String(r.forfeits),
      String(r.errors),
    ]),
  );
}

/** `Elo +12.3 ± 20.1` of a pairing, or '-' before any estimate. */
export function eloText(p: PairingResult): string {
  return p.elo ? `${signed(p.elo.elo)} ± ${p.elo.plusMinus.toFixed(1)}` : '-';
}

/** One row per pairing, the first entrant's figures: W/L/D, score, Elo ± (95%), LOS, draw ratio, pentanomial. */
export function pairingsTable(pairings: readonly PairingResult[]): string {
  const penta = pairings.some((p) => p.pentanomial);
  return table(
    ['pairing', 'games', 'W/L/D', 'score %', 'Elo (95%)', 'LOS', 'draws', ...(penta ? ['pairs', 'Ptnml(0-2)'] : []), 'forfeits', 'errors'],
    pairings.map((p) => [
      `${p.first} vs ${p.second}`,
      String(p.games),
      wld(p),
      pct(p.scorePct),
      eloText(p),
      p.elo ? `${(100 * p.elo.los).toFixed(1)}%` : '-',
      p.drawRatio === null ? '-' : `${(100 * p.drawRatio).toFixed(1)}%`,
      ...(penta ? [String(p.pairs ?? '-'), p.pentanomial ? `[${p.pentanomial.join(', ')}]` : '-'] : []),
      String(p.forfeits),
      String(p.errors),
    ]),
  );
}

/** Entrant x entrant: the row entrant's score against the column entrant, of the games they played. */
export function crossTableText(r: TournamentResults): string {
  const { entrants, cells } = r.crossTable;
  const totals = new Map(r.standings.map((s) => [s.name, s]));
  return table(
    ['', ...entrants, 'score'],
    entrants.map((row) => [
      row,
      ...entrants.map((col) => {
        if (row === col) return '-';
        const c = cells[row]?.[col];
        return c ? `${half(c.score)}/${c.games}` : '';
      }),
      (() => {
        const s = totals.get(row);
        return s ? `${half(s.score)}/${s.games}` : '';
      })(),
    ]),
  );
}

/**
 * The results after the standings: pairings, the cross-table (round robins and gauntlets of more than
 * two entrants: with two it is the pairing again), and standings by scenario when there are several.
 */
export function resultsLines(r: TournamentResults, format?: string): string[] {
  const lines: string[] = [];
  if (r.pairings.length) {
    const penta = r.pairings.some((p) => p.model === 'pentanomial');
    lines.push(
      '',
      `Pairings (figures of the first entrant; Elo with its 95% interval${penta ? ' from the side-swapped pairs' : ''}; LOS: likelihood it is the stronger)`,
      pairingsTable(r.pairings),
    );
  }
  if (r.crossTable.entrants.length > 2 && (format === undefined || format === 'round-robin' || format === 'gauntlet')) {
    lines.push('', "Cross-table (the row entrant's score against the column entrant, of games played)", crossTableText(r));
  }
  if (r.byScenario.length > 1) {
    for (const s of r.byScenario) lines.push('', `Scenario ${s.scenario}`, standingsTable(s.standings));
  }
  return lines;
}

/** `status`: the state, the counts, the SPRT, the standings and results, what went wrong, and notes. */
export function statusLines(v: TournamentOverview): string[] {
  const c = v.counts;
  const where = v.source === 'queue' ? 'on the queue' : v.executor === 'local' ? 'run locally, from the store' : 'from the store';
  const lines = [
    `Tournament ${v.id}${v.name ? ` (${v.name})` : ''}, ${where}: ${v.reason}.`,
    `Matches: ${c.planned} planned, ${c.done} finished` +
      [
        c.forfeits ? `${c.forfeits} forfeited` : '',
        c.errors ? `${c.errors} ended in an engine error` : '',
      ]
        .filter(Boolean)
        .map((x, i) => (i === 0 ? ` (${x}` : `, ${x}`))
        .join('') +
      (c.forfeits || c.errors ? ')' : '') +
      `, ${c.failed} failed, ${c.running} running, ${c.waiting} waiting${c.unplayed ? `, ${c.unplayed} ${v.state === 'stopped' ? 'left unplayed (stopped)' : 'never played'}` : ''}.`,
  ];
  if (v.queue?.stopped) lines.push(`Stopped by its stop rule at ${v.queue.stopped.at}: ${v.queue.stopped.reason}.`);
  if (v.queue?.cancelledAt) lines.push(`Cancelled at ${v.queue.cancelledAt}.`);
  if (v.sprt) lines.push(...sprtText(v.sprt));
  const r = v.results;
  if (r && v.outcomes?.length) {
    lines.push('', 'Standings (finished matches)', standingsTable(r.standings));
    lines.push(...resultsLines(r));
    const odd = v.outcomes.filter((o) => o.kind === 'forfeit' || o.kind === 'error');
    if (odd.length) {
      lines.push('', 'Forfeits and engine errors');
      for (const o of odd) lines.push(`  #${o.index} ${o.matchId}: ${o.kind}${o.detail ? `: ${o.detail}` : ''}`);
    }
  }
  const failed = v.queue?.failed ?? [];
  if (failed.length) {
    lines.push('', 'Failed matches (not played; see the reason)');
    for (const f of failed) lines.push(`  #${f.index} ${f.matchId} after ${f.attempts} attempt(s): ${f.reason}`);
    if (failed.some((f) => f.fault !== 'match')) lines.push(`Play the cancelled and infrastructure-failed ones again with: salient tournament retry ${v.id}`);
  }
  const spool = v.queue?.spool ?? [];
  if (spool.length) {
    const pending = spool.reduce((n, w) => n + w.pending, 0);
    lines.push(
      '',
      `Telemetry: ${pending} finished match(es) wait in worker spools for the ClickHouse server (${spool.map((w) => `${w.worker}: ${w.pending}${w.since ? ` since ${w.since}` : ''}`).join(', ')}); ` +
        'they are delivered when it answers, and until then are missing from reports and the dashboard.',
    );
  }
  for (const n of v.notes) lines.push(`Note: ${n}.`);
  return lines;
}
