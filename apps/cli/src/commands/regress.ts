/**
 * `salient regress SUITE`: play a fixed suite of games on the current code and compare it with a
 * baseline (a file committed beside the suite, or a run tagged in the telemetry store). Exit 0 when
 * nothing moved, 1 when a game changed or a distribution shifted, 2 on bad input. `--update-baseline`
 * accepts the current behaviour as the new baseline.
 */
import { statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Command } from 'commander';
import { SalientError } from '@salient/engine';
import { loadTournamentSpec, planTournament } from '@salient/scheduler';
import {
  baselineFromStore,
  checkTag,
  compareRuns,
  formatReport,
  readBaseline,
  recordTaggedRun,
  runSuite,
  toBaseline,
  writeBaseline,
  type Baseline,
  type SuiteRun,
  type SuiteRunOptions,
} from '@salient/regress';
import { say } from '../output.ts';
import { withTelemetry } from '../telemetry.ts';
import { commandDescription } from './summaries.ts';

interface RegressFlags {
  baseline?: string;
  baselineTag?: string;
  tag?: string;
  updateBaseline?: boolean;
  pack?: string;
  q?: string;
  json?: boolean;
  all?: boolean;
  quiet?: boolean;
}

/** `suites/blitz.yaml` -> `suites/blitz.baseline.json.gz` */
export function defaultBaselinePath(suite: string): string {
  return join(dirname(suite), `${basename(suite).replace(/\.(ya?ml|json)$/i, '')}.baseline.json.gz`);
}

function parseQ(q: string | undefined): number {
  if (q === undefined) return 0.05;
  const v = Number(q);
  if (!(v > 0 && v < 1)) throw new SalientError('BAD_ARGUMENT', `--q: '${q}' is not a false discovery rate; give a number between 0 and 1, such as 0.05.`);
  return v;
}

/**
 * Fail before any game when `baseline` was recorded from another suite than the one at `suitePath`
 * (hash `specHash`, as runSuite stamps a run: the spec as written, whatever --pack says). compareRuns
 * refuses such a pair too, but only once the whole suite has been played.
 */
function checkSameSuite(baseline: Baseline, from: string, suite: { id: string; specHash: string }, suitePath: string): void {
  if (baseline.suite.specHash === suite.specHash) return;
  throw new SalientError(
    'BAD_BASELINE',
    `The baseline ${from} was recorded from another suite (suite '${baseline.suite.id}', spec hash ${baseline.suite.specHash.slice(0, 12)}; ${suitePath} is '${suite.id}', ${suite.specHash.slice(0, 12)}): its scenarios, seeds, bots or options differ, so there is nothing to compare and no game was played. ` +
      'Record a baseline of this suite with --update-baseline, or pass the baseline recorded from it (--baseline FILE or --baseline-tag TAG).',
  );
}

/** Progress on stderr: a line redrawn in place on a terminal, a line per tenth otherwise. */
function progress(quiet: boolean): (played: number, planned: number) => void {
  if (quiet) return () => {};
  const tty = process.stderr.isTTY;
  let shown = -1;
  return (played, planned) => {
    const tenth = Math.floor((10 * played) / planned);
    if (tty) process.stderr.write(`\rregress: ${played}/${planned} games${played === planned ? '\n' : ''}`);
    else if (tenth !== shown) {
      shown = tenth;
      process.stderr.write(`regress: ${played}/${planned} games\n`);
    }
  };
}

export function registerRegress(program: Command): void {
  program
    .command('regress')
    .description(commandDescription('regress'))
    .argument('<suite>', 'the suite: a tournament spec file (YAML or JSON)')
    .option('--baseline <file>', 'baseline file to compare with or to write (default: SUITE with .baseline.json.gz)')
    .option('--baseline-tag <tag>', 'compare with the run tagged TAG in the telemetry store instead of a file')
    .option('--tag <tag>', 'also record this run in the telemetry store under TAG (a later --baseline-tag)')
    .option('--update-baseline', 'accept this run: write it as the baseline file (exit 0)')
    .option('--pack <id|dir>', "play with this pack instead of the suite's (a changed copy, to see what it moves)")
    .option('--q <rate>', 'false discovery rate for the distribution tests (Benjamini–Hochberg)', '0.05')
    .option('--json', 'print the report as JSON on stdout')
    .option('--all', 'list every distribution test, not only those that shifted')
    .option('--quiet', 'no progress on stderr')
    .action(async (suitePath: string, f: RegressFlags) => {
      const q = parseQ(f.q);
      if (f.baselineTag !== undefined) checkTag(f.baselineTag, '--baseline-tag');
      if (f.tag !== undefined) checkTag(f.tag);
      if (f.updateBaseline && f.baselineTag !== undefined) {
        throw new SalientError('BAD_ARGUMENT', '--update-baseline writes a baseline file; with --baseline-tag, record the run under a tag with --tag instead.');
      }
      const spec = await loadTournamentSpec(suitePath);
      const file = f.baseline ?? defaultBaselinePath(suitePath);
      const suite = { id: spec.id, specHash: (await planTournament(spec)).specHash };
      // Read the baseline before playing, so a missing or damaged one, or another suite's, fails at once.
      let baseline: Baseline | undefined;
      if (!f.updateBaseline && f.baselineTag === undefined) {
        baseline = readBaseline(file);
        checkSameSuite(baseline, `file ${file}`, suite, suitePath);
      }

      const startedAt = new Date();
      const play = (sink?: SuiteRunOptions['sink']): Promise<SuiteRun> =>
        runSuite(spec, {
          ...(f.pack !== undefined ? { pack: f.pack } : {}),
          ...(f.tag !== undefined ? { tag: f.tag } : {}),
          ...(sink ? { sink } : {}),
          onProgress: progress(Boolean(f.quiet || f.json)),
        });
      let run: SuiteRun;
      if (f.tag !== undefined || f.baselineTag !== undefined) {
        run = await withTelemetry(async (t) => {
          if (f.baselineTag !== undefined) {
            baseline = await baselineFromStore(t, f.baselineTag);
            checkSameSuite(baseline, `tagged '${f.baselineTag}' in ${t.where}`, suite, suitePath);
          }
          let r: SuiteRun;
          if (f.tag !== undefined) {
            const sink = t.sink({});
            r = await play(sink);
            await sink.drain();
            await recordTaggedRun(t, f.tag, r, startedAt);
          } else r = await play();
          return r;
        });
      } else run = await play();

      if (f.updateBaseline) {
        writeBaseline(file, toBaseline(run));
        const kb = (statSync(file).size / 1024).toFixed(1);
        if (f.json) say(JSON.stringify({ baseline: file, games: run.games.length, bytes: statSync(file).size }));
        else say(`Baseline written: ${file} (${run.games.length} games, ${kb} KB). Commit it beside the suite.`);
        return;
      }
      const report = compareRuns(baseline as Baseline, run, { q });
      if (f.json) say(JSON.stringify(report, null, 2));
      else say(formatReport(report, { all: Boolean(f.all) }));
      if (report.moved) process.exitCode = 1;
    });
}
