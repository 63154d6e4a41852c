/** `salient demo` (what `npm start` runs): bots play the bundled scenarios on the bundled pack. */
import type { Command } from 'commander';
import { summarize, headline } from '../account.ts';
import { EXIT } from '../errors.ts';
import { say } from '../output.ts';
import { matchExitCode, matchTitle, packNote, planMatch, runAccounted } from './play.ts';

/** The demo matches, in order. */
export const DEMO_MATCHES = [
  { game: 'blitz', scenario: 'A', seed: 42, seat: ['Axis=greedy', 'Allies=random'] },
  { game: 'blitz', scenario: 'B', seed: 42, seat: ['Axis=greedy', 'Allies=random'] },
] as const;

export function registerDemo(program: Command): void {
  program
    .command('demo')
    .description('Watch bots play the bundled scenarios (what `npm start` runs).')
    .option('-q, --quiet', 'print only the results')
    .option('-v, --verbose', 'also print every decision and chance draw')
    .action(async (f: { quiet?: boolean; verbose?: boolean }) => {
      say('Salient demo: bots play whole games; every die roll comes from the seed, so this output is the same on every run.');
      const finals: string[] = [];
      let code: number = EXIT.ok;
      for (const m of DEMO_MATCHES) {
        const plan = await planMatch({ ...m, seat: [...m.seat] });
        say();
        say('='.repeat(78));
        say(matchTitle(plan));
        say(packNote(plan.pack));
        say('='.repeat(78));
        const { result, account } = await runAccounted(plan, f.quiet ? undefined : say, Boolean(f.verbose));
        say();
        for (const l of summarize(result, plan.scenario, f.quiet ? undefined : account.eventSummary())) say(l);
        finals.push(`${plan.game.id} ${plan.scenario.id}: ${'result' in result ? `${headline(result.result, plan.scenario)} — ${result.result.reason}` : result.kind}`);
        code = Math.max(code, matchExitCode(result));
        if (result.kind === 'cancelled') break;
      }
      say();
      say('Demo results');
      for (const l of finals) say(`  ${l}`);
      say('Next: `npm run salient -- games` lists what can be played; `npm run salient -- play --help` shows how.');
      process.exitCode = code;
    });
}
