/**
 * What the queries should answer for a set of played matches, worked out from the rows the runner
 * emitted, in memory, without ClickHouse.
 */
import type { CombatResultRow, GameLengthRow, ImpulseCurveRow, ScenarioKey, WinRateRow } from '../../src/index.ts';
import type { Played } from './matches.ts';

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function scenarioKey(p: Played): ScenarioKey {
  const r = p.result;
  return { game: r.game, scenario: r.scenario, packId: r.pack.id, packHash: r.pack.hash, rulesVersion: r.rulesVersion };
}

export function expectedWinRates(played: readonly Played[]): WinRateRow[] {
  const rows = new Map<string, WinRateRow>();
  for (const p of played) {
    const r = p.result;
    if (!('result' in r)) continue;
    for (const [side, outcome] of Object.entries(r.result.sides)) {
      const bot = r.bots[side] ?? '';
      const id = `${side}\0${bot}`;
      const row = rows.get(id) ?? { ...scenarioKey(p), side, bot, games: 0, wins: 0, losses: 0, draws: 0, winRate: 0 };
      row.games++;
      if (outcome === 'win') row.wins++;
      if (outcome === 'loss') row.losses++;
      if (outcome === 'draw') row.draws++;
      row.winRate = row.wins / row.games;
      rows.set(id, row);
    }
  }
  return [...rows.values()].sort((a, b) => cmp(a.side, b.side) || cmp(a.bot, b.bot));
}

export function expectedLengths(played: readonly Played[]): GameLengthRow[] {
  const counted = played.filter((p) => p.result.kind === 'completed' || p.result.kind === 'adjudicated');
  const first = counted[0];
  if (!first) return [];
  const measures = {
    decisions: counted.map((p) => p.result.decisions),
    impulses: counted.map((p) => p.result.impulses),
    turns: counted.map((p) => p.result.position.turn),
  };
  return (Object.keys(measures) as (keyof typeof measures)[]).map((metric) => {
    const values = [...measures[metric]].sort((a, b) => a - b);
    const n = values.length;
    const at = (q: number) => values[Math.max(1, Math.ceil(q * n)) - 1]!;
    const min = values[0]!;
    const max = values[n - 1]!;
    const distinct = [...new Set(values)];
    const width = distinct.length <= 20 ? 1 : Math.ceil((max - min + 1) / 20);
    const buckets: { from: number; to: number; count: number }[] = [];
    for (const v of values) {
      const from = width === 1 ? v : min + Math.floor((v - min) / width) * width;
      const last = buckets.at(-1);
      if (last?.from === from) last.count++;
      else buckets.push({ from, to: from + width - 1, count: 1 });
    }
    return { ...scenarioKey(first), metric, matches: n, mean: values.reduce((a, b) => a + b, 0) / n, p50: at(0.5), p90: at(0.9), min, max, buckets };
  });
}

export function expectedCurves(played: readonly Played[]): ImpulseCurveRow[] {
  const groups = new Map<string, { row: ImpulseCurveRow; ids: Set<string>; n: number; score: number; losses: number; control: number; units: number; withUnits: number }>();
  for (const p of played) {
    for (const imp of p.rows.impulses) {
      const s = imp.summary;
      const powers = new Set([...Object.keys(s?.scores ?? {}), ...Object.keys(s?.control ?? {}), ...Object.keys(s?.supply ?? {}), ...Object.keys(imp.eventCountsByPower)]);
      powers.delete('');
      for (const power of powers) {
        const id = `${imp.position.turn}\0${imp.position.impulse}\0${power}`;
        let g = groups.get(id);
        if (!g) {
          const row = { ...scenarioKey(p), turn: imp.position.turn, impulse: imp.position.impulse, power, matches: 0, meanScore: 0, meanLosses: 0, meanControl: 0 };
          groups.set(id, (g = { row, ids: new Set(), n: 0, score: 0, losses: 0, control: 0, units: 0, withUnits: 0 }));
        }
        g.ids.add(imp.matchId);
        g.n++;
        g.score += s?.scores[power] ?? 0;
        g.losses += imp.eventCountsByPower[power]?.loss ?? 0;
        g.control += s?.control?.[power] ?? 0;
        const units = s?.extra?.[`${power}.units`];
        if (units !== undefined) {
          g.units += units;
          g.withUnits++;
        }
      }
    }
  }
  return [...groups.values()]
    .map((g) => ({
      ...g.row,
      matches: g.ids.size,
      meanScore: g.score / g.n,
      meanLosses: g.losses / g.n,
      meanControl: g.control / g.n,
      ...(g.withUnits ? { meanUnits: g.units / g.withUnits } : {}),
    }))
    .sort((a, b) => a.turn - b.turn || a.impulse - b.impulse || cmp(a.power, b.power));
}

export function expectedCombatResults(played: readonly Played[], limit: number): CombatResultRow[] {
  const rows = new Map<string, CombatResultRow>();
  const totals = new Map<string, number>();
  for (const p of played) {
    for (const e of p.events) {
      if (e.type !== 'combat') continue;
      const rounds = (e.data?.rounds ?? []) as { round: string; attFactors: number; defFactors: number; attResult: string; defResult: string }[];
      for (const r of rounds) {
        const column = `${r.round}\0${r.attFactors}\0${r.defFactors}`;
        totals.set(column, (totals.get(column) ?? 0) + 1);
        const id = `${column}\0${r.attResult}\0${r.defResult}`;
        const row = rows.get(id) ?? {
          game: p.result.game,
          packHash: p.result.pack.hash,
          rulesVersion: p.result.rulesVersion,
          round: r.round,
          attFactors: r.attFactors,
          defFactors: r.defFactors,
          odds: `${r.attFactors}:${r.defFactors}`,
          attResult: r.attResult,
          defResult: r.defResult,
          count: 0,
          columnTotal: 0,
          share: 0,
        };
        row.count++;
        rows.set(id, row);
      }
    }
  }
  return [...rows.values()]
    .map((r) => {
      const columnTotal = totals.get(`${r.round}\0${r.attFactors}\0${r.defFactors}`) ?? 0;
      return { ...r, columnTotal, share: r.count / columnTotal };
    })
    .sort((a, b) => b.count - a.count || cmp(a.round, b.round) || a.attFactors - b.attFactors || a.defFactors - b.defFactors || cmp(a.attResult, b.attResult) || cmp(a.defResult, b.defResult))
    .slice(0, limit);
}
