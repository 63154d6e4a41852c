/** `salient demo` (what `npm start` runs): bots play the bundled scenarios on the bundled pack. */
import type { Command } from 'commander';
import { summarize, headline } from '../account.ts';
import { EXIT } from '../errors.ts';
import { say } from '../output.ts';
import { matchExitCode, matchTitle, packNote, planMatch, runAccounted } from './play.ts';
import { reportLines } from './report.ts';
import { sidesFor, storeNotes, withTelemetry } from '../telemetry.ts';
import type { Telemetry } from '@salient/telemetry';
import { commandDescription } from './summaries.ts';

/** The demo matches, in order. */
export const DEMO_MATCHES = [
  { game: 'blitz', scenario: 'A', seed: 42, seat: ['Axis=greedy', 'Allies=random'] },
  { game: 'blitz', scenario: 'B', seed: 42, seat: ['Axis=greedy', 'Allies=random'] },
] as const;

/** Seeds per scenario and seating for the quick, unnarrated matches that feed the report. */
export const QUICK_SEEDS = 25;

/**
 * A batch of unnarrated matches (greedy against random, each way round) so the report has numbers
 * worth reading. Deterministic like everything else: re-running the demo records the same matches,
 * which the store counts once.
 */
async function quickMatches(t: Telemetry): Promise<void> {
  const seatings = [
    ['Axis=greedy', 'Allies=random'],
    ['Axis=random', 'Allies=greedy'],
  ];
  const total = DEMO_MATCHES.length * seatings.length * QUICK_SEEDS;
  say();
  let done = 0;
  const t0 = performance.now();
  for (const m of DEMO_MATCHES) {
    for (const seat of seatings) {
      for (let seed = 1; seed <= QUICK_SEEDS; seed++) {
        const plan = await planMatch({ game: m.game, scenario: m.scenario, seed, seat });
        await runAccounted(plan, undefined, false, t.sink({ sides: sidesFor(plan.game, plan.pack) }));
        done++;
        if (process.stdout.isTTY) process.stdout.write(`\rRecording ${total} quick matches into telemetry: ${done}/${total}`);
      }
    }
  }
  if (process.stdout.isTTY) process.stdout.write('\r');
  say(`Recorded ${total} quick matches (greedy against random, seeds 1-${QUICK_SEEDS}, both ways round) in ${((performance.now() - t0) / 1000).toFixed(1)} s.`);
}

export function registerDemo(program: Command): void {
  program
    .command('demo')
    .description(commandDescription('demo'))
    .option('-q, --quiet', 'print only the results')
    .option('-v, --verbose', 'also print every decision and chance draw')
    .action(async (f: { quiet?: boolean; verbose?: boolean }) => {
      say('Salient demo: bots play whole games; every die roll comes from the seed, so this output is the same on every run.');
      // The demo records its matches in the telemetry store (embedded ClickHouse unless
      // SALIENT_CLICKHOUSE_URL is set) and ends with the report a designer would ask for.
      await withTelemetry(async (t) => {
        const finals: string[] = [];
        let code: number = EXIT.ok;
        for (const m of DEMO_MATCHES) {
          const plan = await planMatch({ ...m, seat: [...m.seat] });
          say();
          say('='.repeat(78));
          say(matchTitle(plan));
          say(packNote(plan.pack));
          say('='.repeat(78));
          const sink = t.sink({ sides: sidesFor(plan.game, plan.pack) });
          const { result, account } = await runAccounted(plan, f.quiet ? undefined : say, Boolean(f.verbose), sink);
          say();
          for (const l of summarize(result, plan.scenario, f.quiet ? undefined : account.eventSummary())) say(l);
          finals.push(`${plan.game.id} ${plan.scenario.id}: ${'result' in result ? `${headline(result.result, plan.scenario)} — ${result.result.reason}` : result.kind}`);
          code = Math.max(code, matchExitCode(result));
          if (result.kind === 'cancelled') break;
        }
        say();
        say('Demo results');
        for (const l of finals) say(`  ${l}`);
        if (code === EXIT.ok) await quickMatches(t);
        say();
        for (const l of await storeNotes(t)) say(l);
        say('Everything recorded there so far, for the demo\'s game (the same matches replayed count once):');
        for (const l of await reportLines(t, { game: 'blitz' })) say(l);
        say();
        say('Next: `npx salient games` lists what can be played; `npx salient play --help` shows how;');
        say('`npx salient report` and `npx salient query "SELECT ..."` read the telemetry store;');
        say('`npx salient serve` then shows it in a browser at http://127.0.0.1:8080/ (API documentation at /docs).');
        process.exitCode = code;
      });
    });
}
