/**
 * `salient play`: one match between bots, told turn by turn (or as one JSON object with `--json`).
 */
import type { Command } from 'commander';
import { SalientError, type AnyGame, type JsonObject, type LoadedPack, type ScenarioInfo } from '@salient/engine';
import { resolveSeats, runMatch, type MatchResult, type Seats, type TelemetrySink } from '@salient/runner';
import { createBot, loadConfiguredBots } from '@salient/bots';
import { Account, summarize } from '../account.ts';
import { collect, integer, keyValue, scenarioOptions } from '../args.ts';
import { EXIT } from '../errors.ts';
import { say } from '../output.ts';
// The lazy catalog: a match imports its own game only.
import { findScenario, loadGame, loadPack } from '@salient/catalog/lazy';
import { writeReplay } from '../replay-file.ts';
import { sidesFor, storeNotes, withTelemetry } from '../telemetry.ts';
import { commandDescription } from './summaries.ts';

/** Bot that plays any seat the user left out. */
export const DEFAULT_BOT = 'random';

/**
 * Seat specs from `--seat SEAT=BOT` texts, in scenario order. A side none of whose powers has a seat
 * gets {@link DEFAULT_BOT}; a partly seated side gets it for each uncovered power. Unknown seats and
 * doubly covered powers are left for the runner, which names the valid seats.
 */
export function seatSpecs(scenario: ScenarioInfo, given: readonly string[]): Record<string, string> {
  const specs: Record<string, string> = {};
  for (const g of given) {
    const [seat, bot] = keyValue(g, 'Seat', `${scenario.sides[0]?.id ?? 'SIDE'}=random`);
    if (Object.hasOwn(specs, seat)) throw new SalientError('BAD_SEATS', `Seat '${seat}' is given twice.`);
    specs[seat] = bot;
  }
  const covered = new Set<string>();
  for (const seat of Object.keys(specs)) {
    const side = scenario.sides.find((s) => s.id === seat);
    for (const p of side ? side.powers : [seat]) covered.add(p);
  }
  const filled: Record<string, string> = {};
  for (const side of scenario.sides) {
    if (Object.hasOwn(specs, side.id)) filled[side.id] = specs[side.id] as string;
    else if (side.powers.every((p) => !covered.has(p))) filled[side.id] = DEFAULT_BOT;
    for (const p of side.powers) {
      if (Object.hasOwn(specs, p)) filled[p] = specs[p] as string;
      else if (!covered.has(p) && side.powers.some((q) => covered.has(q))) filled[p] = DEFAULT_BOT;
    }
  }
  // Seats that are neither side nor power go through unchanged, so the runner reports them by name.
  for (const [seat, bot] of Object.entries(specs)) if (!Object.hasOwn(filled, seat)) filled[seat] = bot;
  return filled;
}

/** Everything one accounted match needs, already resolved. */
export interface MatchPlan {
  game: AnyGame;
  pack: LoadedPack;
  scenario: ScenarioInfo;
  seed: number;
  /** Seat id -> bot spec, as given (plus defaults). */
  seats: Record<string, string>;
  /** Seat id -> bot factory, built from `seats`. */
  bots: Seats;
  options?: JsonObject;
  cap?: number;
  timeoutMs?: number;
  timeBankMs?: number;
  strikes?: number;
}

/**
 * Resolve names on the command line into a plan, before anything is printed: every unknown name
 * (game, pack, scenario, seat, bot) throws a `SalientError` listing the valid ones.
 */
export async function planMatch(o: {
  game?: string | undefined;
  scenario?: string | undefined;
  pack?: string | undefined;
  seed: number;
  seat: readonly string[];
  option?: readonly string[];
  cap?: number | undefined;
  timeout?: number | undefined;
  timeBank?: number | undefined;
  strikes?: number | undefined;
  /** The bots file for `ext:<name>` seats (default: SALIENT_BOTS_FILE, else none). */
  bots?: string | undefined;
}): Promise<MatchPlan> {
  const game = await loadGame(o.game);
  const pack = await loadPack(game, o.pack);
  const scenario = findScenario(game, pack, o.scenario);
  const seats = seatSpecs(scenario, o.seat);
  resolveSeats(scenario, Object.keys(seats));
  const bots: Seats = {};
  // Here the user is the operator: cmd: and http: seats run as given; the file only adds ext: names.
  const external = await loadConfiguredBots(o.bots);
  for (const [seat, spec] of Object.entries(seats)) bots[seat] = createBot(spec, external);
  const plan: MatchPlan = { game, pack, scenario, seed: o.seed, seats, bots };
  if (o.option?.length) plan.options = scenarioOptions(o.option);
  if (o.cap !== undefined) plan.cap = o.cap;
  if (o.timeout !== undefined) plan.timeoutMs = o.timeout;
  if (o.timeBank !== undefined) plan.timeBankMs = o.timeBank;
  if (o.strikes !== undefined) plan.strikes = o.strikes;
  return plan;
}

/** One line naming the match: game, scenario, pack and fidelity, seed, seats. */
export function matchTitle(p: MatchPlan): string {
  const seats = Object.entries(p.seats)
    .map(([s, b]) => `${s}=${b}`)
    .join(', ');
  return `${p.game.name} · scenario ${p.scenario.id} (${p.scenario.name}) · seed ${p.seed} · ${seats}`;
}

/** A sentence on the pack's fidelity, so nobody mistakes an estimate for the published components. */
export function packNote(pack: LoadedPack): string {
  const i = pack.info;
  const trust =
    i.fidelity === 'official'
      ? 'transcribed from the published components'
      : i.fidelity === 'approximation'
        ? 'an APPROXIMATION of the published components: rulebook facts plus marked estimates'
        : 'synthetic test data';
  return `Pack ${i.id}@${i.version}: ${trust}.`;
}

export interface AccountedRun {
  result: MatchResult;
  account: Account;
}

/**
 * Run `plan` with live output through `write` (nothing is written when `write` is undefined). Ctrl-C
 * cancels the match through its AbortSignal; a second Ctrl-C quits at once.
 */
export async function runAccounted(
  plan: MatchPlan,
  write: ((line: string) => void) | undefined,
  verbose: boolean,
  sink?: TelemetrySink,
): Promise<AccountedRun> {
  const account = new Account({ verbose, write: write ?? (() => {}) });
  const ctrl = new AbortController();
  const onSigint = () => {
    if (ctrl.signal.aborted) process.exit(EXIT.cancelled);
    process.stderr.write('\nsalient: cancelling the match (Ctrl-C again to quit at once)\n');
    ctrl.abort(new Error('cancelled by Ctrl-C'));
  };
  process.on('SIGINT', onSigint);
  try {
    const result = await runMatch({
      game: plan.game,
      pack: plan.pack,
      scenario: plan.scenario.id,
      seed: plan.seed,
      seats: plan.bots,
      seatSpecs: plan.seats,
      signal: ctrl.signal,
      ...(plan.options ? { options: plan.options } : {}),
      ...(plan.cap !== undefined ? { decisionCap: plan.cap } : {}),
      ...(plan.timeoutMs !== undefined ? { decisionTimeoutMs: plan.timeoutMs } : {}),
      ...(plan.timeBankMs !== undefined ? { timeBankMs: plan.timeBankMs } : {}),
      ...(plan.strikes !== undefined ? { strikes: plan.strikes } : {}),
      ...(write ? { onStep: (info) => account.step(info) } : {}),
      ...(sink ? { sink } : {}),
    });
    return { result, account };
  } finally {
    process.off('SIGINT', onSigint);
  }
}

/** Exit code for a finished match: a result (even by forfeit) is success; an error is a bug; cancelled is 130. */
export function matchExitCode(r: MatchResult): number {
  return r.kind === 'error' ? EXIT.bug : r.kind === 'cancelled' ? EXIT.cancelled : EXIT.ok;
}

/** The MatchResult for `--json`: everything but the replay, which `--replay FILE` writes instead. */
export function resultJson(r: MatchResult): string {
  const { replay: _replay, ...rest } = r;
  return JSON.stringify(rest, null, 2);
}

interface PlayFlags {
  game?: string;
  scenario?: string;
  seed: number;
  seat: string[];
  option: string[];
  pack?: string;
  replay?: string;
  json?: boolean;
  cap?: number;
  timeout?: number;
  timeBank?: number;
  strikes?: number;
  quiet?: boolean;
  verbose?: boolean;
  telemetry?: boolean;
  bots?: string;
}

export function registerPlay(program: Command): void {
  program
    .command('play')
    .description(commandDescription('play'))
    .option('-g, --game <id>', 'game id (default: the first listed by `salient games`)')
    .option('-s, --scenario <id>', "scenario id (default: the pack's first)")
    .option('--seed <n>', 'match seed; same seed, pack and bots give the same game', integer(0), 1)
    .option('--seat <seat=bot>', `bot for a side or power, e.g. Axis=greedy (repeatable; unseated sides get ${DEFAULT_BOT})`, collect, [])
    .option('-o, --option <key=value>', 'scenario option (repeatable)', collect, [])
    .option('--pack <id|dir>', "bundled pack id or pack directory (default: the game's first bundled pack)")
    .option('--replay <file>', 'write the replay (action log) to FILE')
    .option('--json', 'print only the MatchResult as one JSON object (without the replay; use --replay for that)')
    .option('--cap <n>', 'adjudicate after N decisions', integer(1))
    .option('--timeout <ms>', 'per-decision time budget in ms; a bot over it (and its bank) takes a strike', integer(1))
    .option('--time-bank <ms>', 'time a seat may spend over its per-decision budgets in the whole match (default 0)', integer(0))
    .option('--strikes <n>', 'overruns a seat may make; before the last the first option is played for it, the last forfeits (default 1)', integer(1))
    .option('-q, --quiet', 'print only the ending (winner, how it ended, scores, match and pack), not the header or the turn-by-turn account')
    .option('-v, --verbose', 'also print every decision and chance draw')
    .option('--bots <file>', 'the bots file: its registered bots play as ext:<name> (default: SALIENT_BOTS_FILE)')
    .option('-t, --telemetry', 'record the match, impulse by impulse, in ClickHouse (embedded under .salient/ unless SALIENT_CLICKHOUSE_URL is set)')
    .action(async (f: PlayFlags) => {
      const plan = await planMatch(f);
      if (f.telemetry) {
        await withTelemetry(async (t) => {
          await playOne(plan, f, t.sink({ sides: sidesFor(plan.game, plan.pack) }));
          // After the match: its rows are in, or spooled if the server went away meanwhile.
          if (!f.json) for (const l of await storeNotes(t)) say(l);
        });
        return;
      }
      await playOne(plan, f);
    });
}

async function playOne(plan: MatchPlan, f: PlayFlags, sink?: TelemetrySink): Promise<void> {
  const live = !f.json && !f.quiet;
  // --quiet is for scripts that read the ending (`... --quiet | grep '^Winner'`): no header either.
  if (live) {
    say(matchTitle(plan));
    say(packNote(plan.pack));
    say();
  }
  const { result, account } = await runAccounted(plan, live ? say : undefined, Boolean(f.verbose), sink);
  if (f.replay) writeReplay(f.replay, result.replay);
  if (f.json) {
    say(resultJson(result));
  } else {
    if (live) say();
    for (const l of summarize(result, plan.scenario, live ? account.eventSummary() : undefined)) say(l);
    if (f.replay) say(`Replay written to ${f.replay}.`);
  }
  process.exitCode = matchExitCode(result);
}
