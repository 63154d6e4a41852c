/**
 * The balance report: for each scenario, how often each side wins (as played, and net of bot
 * strength), how long games run, whether moving first pays, and which victory conditions decide
 * games. Shared by `GET /api/balance` and `salient report balance`.
 *
 * "Net of bot strength" is the Bradley–Terry fit of every match in the filter, bots shared across
 * scenarios, with one side-advantage term per scenario (see @salient/stats): a side's win probability
 * between equal bots. When one bot is far stronger and always plays one side, the raw win rate says
 * little about the scenario; the net figure says what the scenario itself gives.
 */
import { wilson, type Interval } from '@salient/stats';
import type { ScenarioKey, Telemetry, TelemetryFilter } from '@salient/telemetry';
import { resolveGamePack } from '@salient/scheduler';
import { ratingsOf, type Ratings } from './ratings.ts';

export interface BalanceSide {
  side: string;
  /** Powers of the side, when the game's scenario is known here. */
  powers: string[];
  games: number;
  wins: number;
  losses: number;
  draws: number;
  winRate: number;
  interval: Interval;
  /** Win probability between equal bots (draws as half), with its 95% interval; absent when not estimable. */
  net?: { winProbability: number; interval: Interval; matches: number };
}

export interface BalanceScenario extends ScenarioKey {
  matches: number;
  sides: BalanceSide[];
  lengths: { metric: 'turns' | 'impulses' | 'decisions'; mean: number; p50: number; p90: number; min: number; max: number }[];
  /** Who makes the first decision (a side, or a power where powers are seated), in how many matches: does moving first pay? */
  firstMove?: { seat: string; side?: string; matches: number };
  victoryConditions: { reason: string; winners: string[]; matches: number; share: number }[];
}

export interface BalanceReport {
  filter: TelemetryFilter;
  scenarios: BalanceScenario[];
  /** The Bradley–Terry fit the net figures come from. */
  fit?: { converged: boolean; iterations: number; bots: { bot: string; elo: number; interval: Interval; games: number }[] };
}

const keyOf = (k: ScenarioKey) => JSON.stringify([k.game, k.scenario, k.packHash, k.rulesVersion]);

/** Side -> powers of a scenario, from the game's bundled pack when it can be loaded here. */
export async function sidesOf(k: ScenarioKey): Promise<Map<string, string[]>> {
  try {
    const { game, pack } = await resolveGamePack(k.game, k.packId);
    if (pack.info.hash !== k.packHash) return new Map();
    const s = game.scenarios(pack).find((x) => x.id === k.scenario);
    return new Map((s?.sides ?? []).map((x) => [x.id, [...x.powers]]));
  } catch {
    // A pack from a directory this process does not know: the report names powers, not sides.
    return new Map();
  }
}

export async function balanceReport(t: Telemetry, filter: TelemetryFilter = {}, rate: (t: Telemetry, f: TelemetryFilter) => Promise<Ratings> = async (x, f) => ratingsOf(await x.results(f))): Promise<BalanceReport> {
  const [rates, lengths, ratings, victories, movers] = await Promise.all([
    t.winRates(filter),
    t.gameLengths(filter),
    rate(t, filter),
    t.victoryConditions(filter),
    t.firstMovers(filter),
  ]);
  const scenarios = new Map<string, BalanceScenario>();
  for (const r of rates) {
    const id = keyOf(r);
    let s = scenarios.get(id);
    if (!s) {
      s = { game: r.game, scenario: r.scenario, packId: r.packId, packHash: r.packHash, rulesVersion: r.rulesVersion, matches: 0, sides: [], lengths: [], victoryConditions: [] };
      scenarios.set(id, s);
    }
    let side = s.sides.find((x) => x.side === r.side);
    if (!side) s.sides.push((side = { side: r.side, powers: [], games: 0, wins: 0, losses: 0, draws: 0, winRate: 0, interval: { low: 0, high: 1 } }));
    side.games += r.games;
    side.wins += r.wins;
    side.losses += r.losses;
    side.draws += r.draws;
  }
  for (const s of scenarios.values()) {
    const powers = await sidesOf(s);
    for (const side of s.sides) {
      side.winRate = side.games ? side.wins / side.games : 0;
      side.interval = wilson(side.wins, side.games);
      side.powers = powers.get(side.side) ?? [];
      const net = ratings.bradleyTerry?.sides.find((x) => keyOf(x) === keyOf(s) && x.side === side.side);
      if (net) side.net = { winProbability: net.winProbabilityEven, interval: net.interval, matches: net.games };
    }
    s.matches = Math.max(0, ...s.sides.map((x) => x.games));
    s.lengths = lengths.filter((l) => keyOf(l) === keyOf(s)).map(({ metric, mean, p50, p90, min, max }) => ({ metric, mean, p50, p90, min, max }));
    const vc = victories.filter((v) => keyOf(v) === keyOf(s));
    const decided = vc.reduce((a, v) => a + v.matches, 0);
    s.victoryConditions = vc.map((v) => ({ reason: v.reason, winners: v.winners, matches: v.matches, share: decided ? v.matches / decided : 0 }));
    const first = movers.find((m) => keyOf(m) === keyOf(s));
    if (first) {
      const side = s.sides.find((x) => x.side === first.seat || x.powers.includes(first.seat));
      s.firstMove = { seat: first.seat, ...(side ? { side: side.side } : {}), matches: first.matches };
    }
  }
  return {
    filter,
    scenarios: [...scenarios.values()],
    ...(ratings.bradleyTerry ? { fit: { converged: ratings.bradleyTerry.converged, iterations: ratings.bradleyTerry.iterations, bots: ratings.bradleyTerry.bots } } : {}),
  };
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const range = (i: Interval) => `${pct(i.low)}–${pct(i.high)}`;

/** The report as lines for a terminal. */
export function balanceLines(r: BalanceReport): string[] {
  if (!r.scenarios.length) return ['No matches recorded for this filter. Play some first (`salient tournament run ...`).'];
  const out: string[] = [];
  for (const s of r.scenarios) {
    out.push(`${s.game} · Scenario ${s.scenario} · pack ${s.packId} ${s.packHash.slice(0, 8)} · rules ${s.rulesVersion} · ${s.matches} matches`);
    for (const side of s.sides) {
      const net = side.net ? `; between equal bots ${pct(side.net.winProbability)} (${range(side.net.interval)}, from ${side.net.matches} matches)` : '';
      const powers = side.powers.length ? ` (${side.powers.join(', ')})` : '';
      out.push(`  ${side.side}${powers}: won ${side.wins} of ${side.games}, ${pct(side.winRate)} (${range(side.interval)})${side.draws ? `, ${side.draws} drawn` : ''}${net}`);
    }
    const turns = s.lengths.find((l) => l.metric === 'turns');
    const imp = s.lengths.find((l) => l.metric === 'impulses');
    if (turns && imp) out.push(`  length: last turn mean ${turns.mean.toFixed(1)} (median ${turns.p50}, p90 ${turns.p90}); impulses mean ${imp.mean.toFixed(1)} (median ${imp.p50}, p90 ${imp.p90})`);
    if (s.firstMove) {
      const side = s.sides.find((x) => x.side === s.firstMove?.side);
      const tail = side ? `; that side wins ${pct(side.winRate)} as played${side.net ? `, ${pct(side.net.winProbability)} between equal bots` : ''}` : '';
      out.push(`  first move: ${s.firstMove.side ?? s.firstMove.seat} decides first (in ${s.firstMove.matches} of ${s.matches} matches)${tail}`);
    }
    if (s.victoryConditions.length) {
      out.push('  decided by:');
      for (const v of s.victoryConditions.slice(0, 6)) out.push(`    ${pct(v.share).padStart(6)}  ${v.winners.length ? `${v.winners.join(' + ')} win` : 'draw'}: ${v.reason}`);
      if (s.victoryConditions.length > 6) out.push(`    … and ${s.victoryConditions.length - 6} more (--json lists them all)`);
    }
    out.push('');
  }
  if (r.fit) out.push(`Net figures: Bradley–Terry fit over ${r.fit.bots.length} bots (${r.fit.bots.map((b) => `${b.bot} ${b.elo >= 0 ? '+' : ''}${b.elo.toFixed(0)} Elo`).join(', ')}), a side term per scenario; draws count half.`);
  return out;
}
