/**
 * `salient report balance --sweep`: the strength-sweep report (apps/api's sweep.ts), read from the
 * store, or, given `--bot/--param/--levels`, played first: a `strength-sweep` tournament built from the
 * flags runs in the local pool (progress on stderr, as `tournament run` shows it), its matches go to
 * the telemetry store, and the report is read back from there. Running the same flags again skips the
 * matches already recorded, and a larger `--games` grows the recorded sweep (see `recordedSweep`).
 */
import { SalientError } from '@salient/engine';
import type { Telemetry } from '@salient/telemetry';
import { checkTournamentSpec, planTournament, type TournamentPlan, type TournamentSpec } from '@salient/scheduler';
import { EXIT } from '../errors.ts';
import { say } from '../output.ts';
import { playLocal, samePlayBut } from './local-run.ts';

export interface SweepFlags {
  game?: string;
  scenario?: string;
  bot?: string;
  pack?: string;
  tournament?: string;
  json?: boolean;
  param?: string;
  levels?: number[];
  games?: number;
  margin?: number;
  seed?: number;
  cap?: number;
  timeout?: number;
  threads?: number;
  quiet?: boolean;
}

/** Flags that only a sweep to play takes. */
const PLAY_FLAGS = ['param', 'levels', 'games', 'seed', 'cap', 'timeout', 'threads'] as const;

/** Check the flags: which mode, and what is missing or does not fit. */
function mode(f: SweepFlags): 'play' | 'read' {
  const given = PLAY_FLAGS.filter((k) => f[k] !== undefined);
  if (given.length === 0) {
    if (f.bot !== undefined) {
      throw new SalientError('BAD_ARGUMENT', 'report balance --sweep: --bot names the bot to sweep, which needs --param and --levels too (to play a sweep); to read recorded sweeps, drop --bot.');
    }
    if (f.pack !== undefined) throw new SalientError('BAD_ARGUMENT', 'report balance --sweep: --pack only applies when playing a sweep (with --bot, --param and --levels).');
    return 'read';
  }
  const missing = (['bot', 'param', 'levels', 'scenario'] as const).filter((k) => f[k] === undefined).map((k) => `--${k}`);
  if (missing.length) {
    throw new SalientError(
      'BAD_ARGUMENT',
      `report balance --sweep: to play a sweep, give --scenario, --bot, --param and --levels (missing ${missing.join(', ')}); for example --scenario A --bot mcts:rollout=0 --param iterations --levels 25,100,400 --games 20.`,
    );
  }
  if (f.tournament !== undefined) throw new SalientError('BAD_ARGUMENT', 'report balance --sweep: --tournament reads a recorded sweep; it does not go with --param/--levels, which play one. Give one or the other.');
  return 'play';
}

/**
 * The strength-sweep spec the flags describe, checked as any spec is (errors name the flag); under `id`
 * when given (a recorded sweep it grows), else under the spec's hash.
 */
async function sweepPlan(f: SweepFlags, id?: string): Promise<TournamentPlan> {
  const raw = {
    ...(id !== undefined ? { id } : {}),
    ...(f.game !== undefined ? { game: f.game } : {}),
    ...(f.pack !== undefined ? { pack: f.pack } : {}),
    scenarios: (f.scenario ?? '').split(',').map((x) => x.trim()),
    format: 'strength-sweep',
    sweep: { bot: f.bot, param: f.param, levels: f.levels },
    gamesPerPairing: f.games ?? 20,
    ...(f.seed !== undefined ? { baseSeed: f.seed } : {}),
    ...(f.cap !== undefined ? { decisionCap: f.cap } : {}),
    ...(f.timeout !== undefined ? { decisionTimeoutMs: f.timeout } : {}),
  };
  try {
    return await planTournament(await checkTournamentSpec(raw, 'report balance --sweep'));
  } catch (e) {
    if (!(e instanceof SalientError) || e.code !== 'BAD_SPEC') throw e;
    // The spec is the flags': name them, not the spec's fields.
    const flag: Record<string, string> = { scenarios: '--scenario', game: '--game', pack: '--pack', 'sweep.bot': '--bot', 'sweep.param': '--param', 'sweep.levels': '--levels', gamesPerPairing: '--games', baseSeed: '--seed', decisionCap: '--cap', decisionTimeoutMs: '--timeout' };
    const issues = e.issues.map((i) => {
      const key = Object.keys(flag).find((k) => i.path === k || i.path.startsWith(`${k}[`) || i.path.startsWith(`${k}.`));
      return { path: key ? `${flag[key]}${i.path.slice(key.length)}` : i.path, message: i.message };
    });
    throw new SalientError('BAD_ARGUMENT', 'report balance --sweep: the sweep cannot be played as asked; fix the flags below and try again.', issues);
  }
}

/**
 * A recorded sweep of the same spec as `plan` but for its games a level (the seeds of the one with
 * fewer a prefix of the other's): the largest one with at least `plan`'s games (it holds every game
 * asked), else the largest with fewer (`plan` grows it). A sweep's id hashes its whole spec, games
 * included, so without this a larger `--games` would start another sweep and play every game again;
 * under the recorded id the games it has keep their match ids and are skipped.
 */
async function recordedSweep(t: Telemetry, plan: TournamentPlan): Promise<{ id: string; games: number } | undefined> {
  const asked = plan.spec.gamesPerPairing;
  const ids = (await t.tournaments({ game: plan.spec.game }, 1000)).map((x) => x.id);
  const same = [...(await t.tournamentSpecs(ids))].flatMap(([id, { spec }]) => {
    const s = spec as Partial<TournamentSpec> | null;
    return s?.format === 'strength-sweep' && typeof s.gamesPerPairing === 'number' && samePlayBut(s, plan.spec) ? [{ id, games: s.gamesPerPairing }] : [];
  });
  const largest = (xs: { id: string; games: number }[]) => xs.reduce<{ id: string; games: number } | undefined>((best, x) => (!best || x.games > best.games ? x : best), undefined);
  return largest(same.filter((x) => x.games >= asked)) ?? largest(same);
}

/** Play the flags' sweep in the local pool into `t` (Ctrl-C cancels; what finished is kept). */
async function playSweep(t: Telemetry, plan: TournamentPlan, f: SweepFlags, grows?: number): Promise<boolean> {
  const s = plan.spec;
  const r = await playLocal(plan, {
    threads: f.threads,
    quiet: f.quiet,
    telemetry: t,
    noun: 'sweep',
    heading:
      `Strength sweep ${plan.tournamentId}: ${s.sweep?.bot} over ${s.sweep?.param} ${s.sweep?.levels.join(', ')} on ${s.scenarios.join(', ')}, ${s.gamesPerPairing} games a level` +
      (grows !== undefined ? ` (growing the sweep recorded with ${grows})` : ''),
  });
  return r.cancelled;
}

/**
 * Run `report balance --sweep` with `f`; `withStore` opens the store. The flags, and a sweep to play,
 * are checked before the store is opened, so a mistake is reported at once.
 */
export async function sweepCommand(f: SweepFlags, withStore: <T>(run: (t: Telemetry) => Promise<T>) => Promise<T>): Promise<void> {
  let plan = mode(f) === 'play' ? await sweepPlan(f) : undefined;
  const { sweepLines, sweepReport } = await import('@salient/api');
  await withStore(async (t) => {
    const recorded = plan ? await recordedSweep(t, plan) : undefined;
    let cancelled = false;
    if (plan && recorded && recorded.games > plan.spec.gamesPerPairing) {
      if (!f.quiet) process.stderr.write(`Strength sweep ${recorded.id} is recorded with ${recorded.games} games a level, more than the ${plan.spec.gamesPerPairing} asked: nothing to play, the report is of all ${recorded.games}.\n`);
    } else if (plan) {
      if (recorded && recorded.id !== plan.tournamentId) plan = await sweepPlan(f, recorded.id);
      cancelled = await playSweep(t, plan, f, recorded && recorded.games < plan.spec.gamesPerPairing ? recorded.games : undefined);
    }
    const tournament = recorded?.id ?? plan?.tournamentId ?? f.tournament;
    const r = await sweepReport(t, {
      ...(tournament !== undefined ? { tournament } : { ...(f.game !== undefined ? { game: f.game } : {}), ...(f.scenario !== undefined ? { scenario: f.scenario } : {}) }),
      ...(f.margin !== undefined ? { margin: f.margin } : {}),
    });
    if (f.json) say(JSON.stringify(r, null, 2));
    else for (const l of sweepLines(r)) say(l);
    if (cancelled) process.exitCode = EXIT.cancelled;
  });
}
