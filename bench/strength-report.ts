/**
 * The arithmetic of the strength ladder's report (bench/strength.bench.ts), apart from the games and the
 * store so that test/strength-report.test.ts can check it on a handful of made-up outcomes: BENCH_GAMES
 * per scenario, the calibration's next iteration count ({@link proposal}), the tallies from the
 * outcomes (decided games for the ratings, attack and defence, think time, Paris in Blitz! A) and the
 * markdown block built from them. It imports no game, bot or store.
 */
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MatchOutcome, TournamentSpec } from '@salient/scheduler';
import { bradleyTerry, eloDifference, wilson, type BradleyTerryResult, type RatedMatch } from '@salient/stats';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The side that has to take ground to win, per `game/scenario` (see the bench's file comment). */
export const ATTACKER: Readonly<Record<string, string>> = { 'blitz/A': 'Axis', 'blitz/B': 'Allies', 'blitz/D': 'Axis', 'empires-alliances/1918': 'CP' };
/** The issue's target for the tuned bot's rival over it, in Elo. */
export const TARGET_ELO = 200;
/** Seeds of the calibration games, far from the ladder's, so the iterations are not fitted to its games. */
export const CALIBRATION_SEED = 1_000_001;

export interface Timing {
  ms: number;
  decisions: number;
}

export interface Calibration {
  /** Iterations of the tuned bot before and after, and the passes measured. */
  from: number;
  chosen: number;
  /** ms per decision of the tuned bot at each pass's iterations, and of the target over all passes. */
  passes: { iterations: number; ms: number; decisions: number }[];
  target: Timing;
  games: number;
  /** Given by BENCH_ITERATIONS instead of measured. */
  given: boolean;
  /** Read from the ledger (bench/strength-ledger.ts): the machine (`date|node|cpu`) that measured it. */
  recorded?: string;
  /** Decisions a calibration game could last (BENCH_CALIBRATION_CAP when it was measured); absent when given, or read from a ledger line older than the field. */
  cap?: number;
}

export interface Tally {
  games: number;
  wins: number;
  draws: number;
}

/** What the report reads of one scenario of the ladder (the bench's `Leg` has this and more). */
export interface ReportLeg {
  /** `game/scenario`, the Bradley–Terry scenario key. */
  key: string;
  spec: Pick<TournamentSpec, 'entrants' | 'pairings' | 'gamesPerPairing'>;
  plan?: { tournamentId: string };
  calibration?: Calibration;
}

export const perDecision = (t: Timing) => t.ms / Math.max(1, t.decisions);
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
export const list = (v: string | undefined) => (v ?? '').split(',').map((s) => s.trim()).filter(Boolean);

/**
 * BENCH_GAMES as a function of the scenario: one even number for every scenario (`20`), or a number per
 * scenario (`A:40,B:40,D:4,1918:4`; a scenario not named plays its spec's games).
 */
export function gamesPerScenario(v: string | undefined): (scenario: string) => number | undefined {
  const check = (n: number, what: string) => {
    if (!Number.isSafeInteger(n) || n < 2 || n % 2) throw new Error(`BENCH_GAMES: ${what} must be an even whole number of at least 2 (each seed is played from both sides)`);
    return n;
  };
  if (v === undefined || v.trim() === '') return () => undefined;
  if (!v.includes(':')) {
    const n = check(Number(v), `'${v}'`);
    return () => n;
  }
  const by = new Map(
    list(v).map((x) => {
      const [sc = '', n = ''] = x.split(':');
      return [sc, check(Number(n), `'${x}'`)] as const;
    }),
  );
  return (scenario) => by.get(scenario);
}


/**
 * The iterations whose time per decision should be `target`, from the passes so far. Time per decision
 * grows faster than the iterations (a bigger tree is deeper, and each iteration then applies more
 * steps: in one calibration on Blitz! A, 300 iterations cost MCTS 19 times the CPU of 46, not 6.5), so the curve is
 * taken as a power law, t = a × iterations^k, through two measured points: the nearest on either side
 * of the target when the passes bracket it, else the last two; after one pass, proportional.
 */
export function proposal(passes: readonly { iterations: number; ms: number; decisions: number }[], target: number, clamp: (n: number) => number): number {
  const pts = passes.map((p) => ({ i: p.iterations, t: perDecision(p) })).filter((p) => p.t > 0);
  const last = pts[pts.length - 1];
  if (!last) return passes[passes.length - 1]?.iterations ?? 1;
  const below = pts.filter((p) => p.t <= target).sort((a, b) => b.t - a.t)[0];
  const above = pts.filter((p) => p.t > target).sort((a, b) => a.t - b.t)[0];
  const [p, q] = below && above ? [below, above] : pts.length >= 2 ? [pts[pts.length - 2]!, last] : [last, last];
  const k = p.i !== q.i ? Math.log(q.t / p.t) / Math.log(q.i / p.i) : 1;
  const exponent = Number.isFinite(k) && k > 0.2 ? k : 1;
  // From the point nearer the target, at most a factor of 8 away from it.
  const near = Math.abs(Math.log(p.t / target)) < Math.abs(Math.log(q.t / target)) ? p : q;
  return clamp(near.i * Math.min(8, Math.max(1 / 8, (target / near.t) ** (1 / exponent))));
}

/** What the store holds of a match beyond its outcome: think time and decisions per side, and Paris in A. */
export interface StoredMatch {
  thinkMs: Record<string, number>;
  decisions: Record<string, number>;
  /** Blitz! A: whether the Axis held Paris after any step. */
  axisTookParis?: boolean;
}

/** Everything the report counts from the outcomes (keys `bot|scenario key` or `bot|all`, tallies `bot|attack|key`). */
export interface Tallies {
  /** The games every side of which won, lost or drew, for Bradley–Terry: all, and by scenario key. */
  rated: RatedMatch[];
  ratedBy: Map<string, RatedMatch[]>;
  /** Matches by how they ended. */
  kinds: Record<string, number>;
  /** Decided games, wins and draws by `bot|attack|key` and `bot|defence|key` (key `all` too). */
  tallies: Map<string, Tally>;
  /** The store's think time and decisions by `bot|key` (key `all` too). */
  times: Map<string, Timing>;
  /** Blitz! A: each bot's decided games as the Axis, how many of them it took Paris in, and won. */
  paris: Map<string, { games: number; took: number; won: number }>;
  /** Decisions of both seats over every outcome. */
  decisions: number;
}

/** The tallies of `outcomes`, each a match of one of `legs` (by tournament id), with what the store holds of it. */
export function tallyOutcomes(legs: readonly ReportLeg[], outcomes: readonly MatchOutcome[], stored: ReadonlyMap<string, StoredMatch>): Tallies {
  const legOf = new Map(legs.map((l) => [l.plan!.tournamentId, l]));
  const rated: RatedMatch[] = [];
  const ratedBy = new Map<string, RatedMatch[]>();
  const kinds: Record<string, number> = {};
  const tallies = new Map<string, Tally>();
  const tally = (k: string) => tallies.get(k) ?? (tallies.set(k, { games: 0, wins: 0, draws: 0 }), tallies.get(k)!);
  const times = new Map<string, Timing>();
  const time = (k: string) => times.get(k) ?? (times.set(k, { ms: 0, decisions: 0 }), times.get(k)!);
  const paris = new Map<string, { games: number; took: number; won: number }>();
  let decisions = 0;
  for (const o of outcomes) {
    const leg = legOf.get(o.tournamentId)!;
    kinds[o.kind] = (kinds[o.kind] ?? 0) + 1;
    decisions += o.decisions;
    const s = stored.get(o.matchId);
    for (const [side, bot] of Object.entries(o.entrants)) {
      if (s) {
        for (const k of [`${bot}|${leg.key}`, `${bot}|all`]) {
          time(k).ms += s.thinkMs[side] ?? 0;
          time(k).decisions += s.decisions[side] ?? 0;
        }
      }
      const res = o.sides[side];
      if (res !== 'win' && res !== 'loss' && res !== 'draw') continue;
      const role = ATTACKER[leg.key] === side ? 'attack' : 'defence';
      for (const k of [`${bot}|${role}|${leg.key}`, `${bot}|${role}|all`]) {
        const x = tally(k);
        x.games++;
        if (res === 'win') x.wins++;
        if (res === 'draw') x.draws++;
      }
      if (leg.key === 'blitz/A' && side === 'Axis' && s?.axisTookParis !== undefined) {
        const p = paris.get(bot) ?? (paris.set(bot, { games: 0, took: 0, won: 0 }), paris.get(bot)!);
        p.games++;
        if (s.axisTookParis) p.took++;
        if (res === 'win') p.won++;
      }
    }
    const sides = Object.entries(o.entrants).map(([side, bot]) => ({ side, bot, result: o.sides[side] }));
    if (sides.every((x) => x.result === 'win' || x.result === 'loss' || x.result === 'draw')) {
      const m = { scenario: leg.key, sides: sides as RatedMatch['sides'] };
      rated.push(m);
      (ratedBy.get(leg.key) ?? (ratedBy.set(leg.key, []), ratedBy.get(leg.key)!)).push(m);
    }
  }
  return { rated, ratedBy, kinds, tallies, times, paris, decisions };
}

/** Bradley–Terry over every decided game (a side term per scenario), and over each scenario's alone. */
export function ratings(t: Pick<Tallies, 'rated' | 'ratedBy'>): { fit: BradleyTerryResult | undefined; fits: Map<string, BradleyTerryResult> } {
  const fit = t.rated.length ? bradleyTerry(t.rated) : undefined;
  const fits = new Map<string, BradleyTerryResult>();
  for (const [k, ms] of t.ratedBy) fits.set(k, bradleyTerry(ms));
  return { fit, fits };
}

export interface ReportInput {
  legs: readonly ReportLeg[];
  outcomes: readonly MatchOutcome[];
  stored: ReadonlyMap<string, StoredMatch>;
  threads: number;
  wallS: number;
  played: number;
  tunedName: string;
  targetName: string;
  specPaths: readonly string[];
  /** The run's date, Node and machine (bench/support.ts `machine()`), heading the block. */
  machine: { date: string; node: string; cpu: string; nproc: number; memGB: number };
}

/** `1 thread`, `2 threads`. */
const threadsText = (n: number) => `${n} thread${n === 1 ? '' : 's'}`;

/** The RESULTS.md block of the ladder: calibration, ratings, side terms, attack and defence, Paris, time. */
export function report(r: ReportInput): string {
  const { legs, outcomes, tunedName, targetName } = r;
  const { rated, ratedBy, kinds, tallies, times, paris, decisions } = tallyOutcomes(legs, outcomes, r.stored);
  const tally = (k: string) => tallies.get(k) ?? { games: 0, wins: 0, draws: 0 };
  const time = (k: string) => times.get(k) ?? { ms: 0, decisions: 0 };

  const bots = [...new Set(legs.flatMap((l) => l.spec.entrants.map((e) => e.name)))];
  const pairings = [...new Set(legs.flatMap((l) => (l.spec.pairings ?? []).map(([a, b]) => `${a}|${b}`)))].map((p) => p.split('|') as [string, string]);
  const { fit, fits } = ratings({ rated, ratedBy });
  const keys = legs.map((l) => l.key);
  const short = (k: string) => (k.startsWith('blitz/') ? k.slice(6) : k === 'empires-alliances/1918' ? 'E&A 1918' : k);

  const m = r.machine;
  const lines = [
    `<!-- bench-strength:${m.date}|${m.node}|${m.cpu} -->`,
    `### Bot strength ladder · ${m.date} · Node ${m.node} · ${m.cpu} (nproc ${m.nproc}, ${m.memGB} GB)`,
    '',
    `The ladder of ${r.specPaths.map((p) => `\`${relative(root, p)}\``).join(' and ')} on ${keys.map(short).join(', ')}: ` +
      `${gamesText(legs.map((l) => [short(l.key), l.spec.gamesPerPairing]))} games per pairing per scenario (each seed played twice with the sides exchanged), pairings ` +
      `${pairings.map(([a, b]) => `${a}–${b}`).join(', ')}; ${outcomes.length} matches ` +
      (r.played === outcomes.length
        ? `on ${threadsText(r.threads)} in ${r.wallS.toFixed(0)} s (${(outcomes.length / r.wallS).toFixed(2)} games/s, ${(decisions / r.wallS).toFixed(0)} decisions/s of both seats, store writes included). `
        : r.played === 0
          ? `(all from the ledger or BENCH_STORE: none played in this run). `
          : `(${r.played} played in this run on ${threadsText(r.threads)} in ${r.wallS.toFixed(0)} s, the others found in the ledger or BENCH_STORE: no games/s for a resumed run). `) +
      `Endings: ` +
      `${Object.entries(kinds)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ')}. Bots: ${bots.map((b) => `\`${b}\` = ${[...new Set(legs.flatMap((l) => l.spec.entrants.filter((e) => e.name === b).map((e) => `\`${e.bot}\`${legs.length > 1 ? ` (${legs.filter((x) => x.spec.entrants.some((y) => y.name === b && y.bot === e.bot)).map((x) => short(x.key)).join(', ')})` : ''}`)))].join(', ')}`).join('; ')}.`,
  ];

  // Equal time per decision.
  const calibrated = legs.filter((l) => l.calibration);
  lines.push('');
  if (!calibrated.length) {
    lines.push(`No calibration: no spec has both \`${tunedName}\` and \`${targetName}\` (BENCH_EQUAL); ${tunedName} plays the spec's iterations.`);
  } else {
    lines.push(
      `Equal time per decision: \`${tunedName}\`'s iterations per scenario set so its mean ms per decision matches \`${targetName}\`'s, measured in CPU ms in calibration games ` +
        `of the two against each other (seeds from ${CALIBRATION_SEED}, both sides, one game at a time in the main thread, each cut off after the decisions its row gives); ` +
        `then what each spent per decision in the ladder's own games (the runner's think time per seat, wall ms, over the decisions it was asked, two games at a time on a shared machine).`,
      '',
      `| scenario | calibration games | ${targetName} CPU ms/decision | ${tunedName} passes (iterations: CPU ms/decision) | decisions a calibration game at most | ${tunedName} iterations chosen | ladder: ${targetName} wall ms/decision | ladder: ${tunedName} wall ms/decision |`,
      '|---|---:|---:|---|---:|---:|---:|---:|',
    );
    for (const l of calibrated) {
      const c = l.calibration!;
      const ladder = (b: string) => {
        const x = time(`${b}|${l.key}`);
        return x.decisions ? perDecision(x).toFixed(2) : '–';
      };
      lines.push(
        `| ${short(l.key)} | ${c.given ? 'given (BENCH_ITERATIONS)' : c.recorded ? `${c.games} (ledger: ${c.recorded.replaceAll('|', ' · ')})` : c.games} | ${c.given ? '–' : perDecision(c.target).toFixed(2)} | ${c.passes.map((p) => `${p.iterations}: ${perDecision(p).toFixed(2)}`).join('; ') || '–'} | ${c.cap ?? '–'} | ${c.chosen} | ${ladder(targetName)} | ${ladder(tunedName)} |`,
      );
    }
  }

  // Ratings.
  if (fit) {
    lines.push(
      '',
      `Bradley–Terry strengths over the ${rated.length} decided games, every scenario at once with a side term per scenario (Elo scale, relative to the average of the ${fit.bots.length} bots; Firth's penalty; 95% intervals), and per scenario:`,
      '',
      `| bot | all: Elo | 95% interval | games | ${keys.map((k) => `${short(k)}: Elo (95% interval)`).join(' | ')} |`,
      `|---|---:|---|---:|${keys.map(() => '---|').join('')}`,
      ...fit.bots.map((b) => {
        const per = keys.map((k) => {
          const x = fits.get(k)?.bots.find((y) => y.bot === b.bot);
          return x ? `${signed(x.elo)} (${signed(x.interval.low)} to ${signed(x.interval.high)})` : '–';
        });
        return `| ${b.bot} | ${signed(b.elo)} | ${signed(b.interval.low)} to ${signed(b.interval.high)} | ${b.games} | ${per.join(' | ')} |`;
      }),
      '',
      `| difference | all: Elo | 95% interval | ${keys.map((k) => `${short(k)}: Elo (95% interval)`).join(' | ')} |`,
      `|---|---:|---|${keys.map(() => '---|').join('')}`,
    );
    // Each pairing as the later entrant minus the earlier (the ladder's rungs upward); the target pair first, as target − tuned.
    const diffs: [string, string][] = pairings.map(([a, b]) => [b, a]).filter(([a, b]) => !(new Set([a, b]).has(tunedName) && new Set([a, b]).has(targetName))) as [string, string][];
    if (bots.includes(tunedName) && bots.includes(targetName)) diffs.unshift([targetName, tunedName]);
    for (const [a, b] of diffs) {
      const d = tryDiff(fit, a, b);
      if (!d) continue;
      const per = keys.map((k) => {
        const x = fits.get(k) && tryDiff(fits.get(k)!, a, b);
        return x ? `${signed(x.elo)} (${signed(x.interval.low)} to ${signed(x.interval.high)})` : '–';
      });
      lines.push(`| ${a} − ${b} | ${signed(d.elo)} | ${signed(d.interval.low)} to ${signed(d.interval.high)} | ${per.join(' | ')} |`);
    }
    const target = tryDiff(fit, targetName, tunedName);
    lines.push(
      '',
      target
        ? `Target (issue 31): ${targetName} − ${tunedName} ≥ +${TARGET_ELO} Elo at equal time per decision, interval above 0: ${signed(target.elo)} (${signed(target.interval.low)} to ${signed(target.interval.high)}), ` +
            `**${target.elo >= TARGET_ELO && target.interval.low > 0 ? 'met' : 'not met'}**.`
        : `Target (issue 31): ${targetName} − ${tunedName} ≥ +${TARGET_ELO} Elo: not measured (\`${targetName}\` ${bots.includes(targetName) ? 'has no decided games' : 'is not an entrant of these specs'}).`,
      '',
      '| scenario | side | wins between equal bots | 95% interval |',
      '|---|---|---:|---|',
      ...fit.sides.map((s) => `| ${short(s.scenario)} | ${s.side}${ATTACKER[s.scenario] === s.side ? ' (attacks)' : ''} | ${pct(s.winProbabilityEven)} | ${pct(s.winProbabilityInterval.low)}–${pct(s.winProbabilityInterval.high)} |`),
    );
  }

  // Attack and defence.
  lines.push(
    '',
    `Each bot's wins attacking and defending (attacker: ${keys.map((k) => `${short(k)} ${ATTACKER[k] ?? '?'}`).join(', ')}), decided games, 95% Wilson interval on the win rate; a draw counts half in the score:`,
    '',
    `| bot | scenario | attack: games | wins | 95% interval | score | defence: games | wins | 95% interval | score |`,
    '|---|---|---:|---:|---|---:|---:|---:|---|---:|',
  );
  const cells = (t: Tally) => {
    if (!t.games) return '0 | – | – | –';
    const i = wilson(t.wins, t.games);
    return `${t.games} | ${t.wins} (${pct(t.wins / t.games)}) | ${pct(i.low)}–${pct(i.high)} | ${pct((t.wins + t.draws / 2) / t.games)}`;
  };
  for (const b of bots) {
    for (const k of [...(keys.length > 1 ? ['all'] : []), ...keys]) {
      const a = tally(`${b}|attack|${k}`);
      const d = tally(`${b}|defence|${k}`);
      if (!a.games && !d.games) continue;
      lines.push(`| ${b} | ${k === 'all' ? 'all' : short(k)} | ${cells(a)} | ${cells(d)} |`);
    }
  }

  // Paris.
  if (keys.includes('blitz/A')) {
    lines.push(
      '',
      `Germany in A: how often each bot took Paris (held it after any step of the game: each stored replay re-run without its bots), and won (Paris and Poland held at once):`,
      '',
      '| bot as Germany | games | took Paris | 95% interval | won |',
      '|---|---:|---:|---|---:|',
      ...bots.flatMap((b) => {
        const p = paris.get(b);
        if (!p) return [];
        const i = wilson(p.took, p.games);
        return [`| ${b} | ${p.games} | ${p.took} (${pct(p.took / p.games)}) | ${pct(i.low)}–${pct(i.high)} | ${p.won} (${pct(p.won / p.games)}) |`];
      }),
    );
  }

  // Time.
  lines.push(
    '',
    `Each bot's time in the ladder's games (the runner's think time per seat; two games at a time, store writes beside them), ms per decision and decisions per second of its own time; the search rates inside \`decide\` (MCTS's iterations/s, the planner's evaluations/s) are in the MCTS block (\`npm run bench:mcts\`, one thread):`,
    '',
    `| bot | ${[...(keys.length > 1 ? ['all'] : []), ...keys].map((k) => `${k === 'all' ? 'all' : short(k)}: ms/decision (decisions/s)`).join(' | ')} |`,
    `|---|${[...(keys.length > 1 ? ['all'] : []), ...keys].map(() => '---:|').join('')}`,
    ...bots.map((b) => {
      const per = [...(keys.length > 1 ? ['all'] : []), ...keys].map((k) => {
        const x = time(`${b}|${k}`);
        return x.decisions ? `${perDecision(x).toFixed(2)} (${x.ms > 0 ? ((1000 * x.decisions) / x.ms).toFixed(0) : '∞'})` : '–';
      });
      return `| ${b} | ${per.join(' | ')} |`;
    }),
    `<!-- bench-strength:end -->`,
  );
  return lines.join('\n');
}

/** `20`, or `40 on A and B, 4 on D and E&A 1918` when the scenarios differ. */
function gamesText(per: [string, number][]): string {
  const counts = [...new Set(per.map(([, n]) => n))];
  if (counts.length === 1) return String(counts[0]);
  return counts.map((n) => `${n} on ${per.filter(([, m]) => m === n).map(([k]) => k).join(', ')}`).join('; ');
}

function tryDiff(fit: BradleyTerryResult, a: string, b: string): ReturnType<typeof eloDifference> | undefined {
  return fit.bots.some((x) => x.bot === a) && fit.bots.some((x) => x.bot === b) ? eloDifference(fit, a, b) : undefined;
}

function signed(x: number): string {
  const t = x.toFixed(0);
  return t === '0' || t === '-0' ? '0' : x > 0 ? `+${t}` : t;
}

