// Numbers and times as the dashboard shows them, and the interval the API uses.

export const pct = (x, digits = 1) => (Number.isFinite(x) ? `${(100 * x).toFixed(digits)}%` : '—');
export const int = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en') : '—');
export const fixed = (x, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : '—');
export const interval = (i) => `${pct(i.low)} – ${pct(i.high)}`;
/** W–L–D of games, e.g. "4 W · 0 L · 0 D of 4". */
export const record = (r) => `${r.wins} W · ${r.losses} L · ${r.draws} D of ${r.games}`;

/** A stored time ("2026-11-23T02:36:56Z" or "2026-11-23 02:36:56.000") as "2026-11-23 02:36:56 UTC". */
export function when(s) {
  if (!s) return '—';
  const d = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(s) ? s : `${s.replace(' ', 'T')}Z`);
  return Number.isNaN(d.getTime()) ? s : `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

export const duration = (ms) => (ms < 1000 ? `${Math.round(ms)} ms` : ms < 120_000 ? `${(ms / 1000).toFixed(1)} s` : `${(ms / 60_000).toFixed(1)} min`);

/** Group rows by a key, keeping first-seen order. */
export function groupBy(rows, key) {
  const groups = new Map();
  for (const r of rows) {
    const k = key(r);
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(r);
  }
  return groups;
}

/** The scenario a row belongs to, as its heading says it: "blitz · Scenario A". */
export const scenarioKey = (r) => `${r.game}\u0000${r.scenario}\u0000${r.packId}\u0000${r.packHash}\u0000${r.rulesVersion}`;
export const scenarioTitle = (r) => `${r.game} · Scenario ${r.scenario}`;
export const scenarioDetail = (r) => `pack ${r.packId} ${r.packHash.slice(0, 8)} · rules ${r.rulesVersion}`;
