/**
 * The local executor: a pool of worker threads on this machine plays a tournament plan (the default
 * way to run one). Matches are handed out in plan order, one at a time to whichever thread is free;
 * each thread plays through `playPlanned` and posts its rows to this thread's store (the process that
 * owns the embedded store owns it alone: see ARCHITECTURE.md, "Telemetry"). Matches the store already
 * holds for the tournament are skipped and counted from the store, so running a tournament again
 * resumes it. The spec's stop rule sees the outcomes in plan order (one that finishes early waits for
 * those before it), so where it stops does not depend on the number of threads or their timing: an
 * SPRT stops after the same pair on one thread or sixteen. Once it decides, no more matches are handed
 * out, matches already running finish (they are recorded and counted in the final figures, as fishtest
 * counts games finished after a test stops), and the rest of the plan is left unplayed; running the
 * tournament again finds the test decided and plays nothing. A thread that dies takes only its match
 * with it: the match is handed out once more, and if it kills a thread again it is recorded as an
 * `error`; a new thread takes the dead one's place.
 * Nothing here writes to the terminal: progress goes to `onProgress`.
 */
import { availableParallelism, hostname } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { SalientError } from '@salient/engine';
import { killBotGroup, type ExternalBots } from '@salient/bots';
import { recordedMatches, serveSink, type RecordedMatch, type RemoteSinkOptions, type ServedSink, type SinkOptions, type Telemetry } from '@salient/telemetry';
import type { MatchOutcome, PlannedMatch, TournamentPlan } from '../types.ts';
import { errorOutcome, isDecided, plannedPart } from '../play.ts';
import { bundleEntry } from '../bundle.ts';
import { tournamentRecord } from '../record.ts';
import { createStopRule, stopContextOf, type StopDecision, type StopStatus } from '../stop-rule.ts';
import type { ToPool, ToThread } from './protocol.ts';

/** What {@link runLocalTournament} tells `onProgress` (after every match, and once before the first). */
export interface LocalProgress {
  tournamentId: string;
  /** Matches in the plan. */
  total: number;
  /** Matches finished, skipped ones included. */
  done: number;
  /** Matches found in the store and skipped. */
  skipped: number;
  /** Matches played in this run so far. */
  played: number;
  /** Matches being played now. */
  running: number;
  elapsedMs: number;
  /** Matches played per second in this run (0 before the first). */
  gamesPerSec: number;
  /** Estimated time left, ms (undefined before the first match). */
  etaMs: number | undefined;
  /** Every outcome so far (skipped matches included), in the order they came. */
  outcomes: readonly MatchOutcome[];
  /** The stop rule's live figures (`stop: sprt`: the test as it stands). */
  stop?: StopStatus;
  /** Set once the stop rule ended the tournament early: why (no more matches are handed out). */
  stopped?: string;
}

export interface LocalRunOptions {
  plan: TournamentPlan;
  /** Game threads (default `os.availableParallelism()`, never more than the matches to play). */
  threads?: number;
  /** The store: rows go there, and matches it holds for the tournament are skipped. Absent: no telemetry, nothing skipped. */
  telemetry?: Telemetry;
  /** Stops handing out matches, aborts running ones (they come back `cancelled`), closes the threads. */
  signal?: AbortSignal;
  onProgress?: (p: LocalProgress) => void;
  /** Options of the store sink on this thread. */
  sinkOptions?: Omit<SinkOptions, 'spoolDir'>;
  /** Options of each thread's RemoteSink. */
  remoteSinkOptions?: RemoteSinkOptions;
  /** Skip matches already recorded (default true; needs `telemetry`). */
  resume?: boolean;
  /** For tests: the thread given one of these match ids dies (exits) instead of playing it. */
  dieOn?: readonly string[];
  /**
   * Heap limits of each game thread (a thread past `maxOldGenerationSizeMb` dies, and its match is
   * handed out once more). Default: Node's.
   */
  resourceLimits?: ResourceLimits;
  /** Where the bundled game-thread file is kept (default: see `bundleEntry`). */
  cacheDir?: string;
  /** The operator's bots file, for `ext:<name>` seats (default: none). A local run plays any `cmd:`/`http:` seat. */
  bots?: ExternalBots;
  /** Ms to wait for running matches to stop after a cancel before threads are terminated (default 10000). */
  cancelGraceMs?: number;
  /**
   * Ms between the store records that say the run is alive (default 30000): a run killed outright
   * leaves a `running` record that stops being renewed, and readers (the API) can tell it stalled.
   */
  heartbeatMs?: number;
}

export interface LocalRunResult {
  tournamentId: string;
  /** One per finished match, skipped ones included, sorted by plan index. */
  outcomes: MatchOutcome[];
  /** Matches played in this run, and found recorded and skipped. */
  played: number;
  skipped: number;
  /** Game threads that died (and were replaced). */
  threadDeaths: number;
  cancelled: boolean;
  threads: number;
  wallMs: number;
  /** The stop rule's figures at the end (`stop: sprt`). */
  stop?: StopStatus;
  /**
   * What the stop rule decided on the outcomes in plan order (`stop: sprt`: a hypothesis accepted, or
   * the plan ran out undecided; `stop: false` when the run was cancelled before either).
   */
  decision?: StopDecision;
  /**
   * Set when the stop rule ended the tournament before its plan did: why, and how many planned
   * matches were left unplayed.
   */
  stopped?: { reason: string; unplayed: number };
}

/**
 * Matches a thread holds at once: the one it plays and the next, so it starts the next at once
 * instead of waiting for this thread to answer (on a loaded machine that wait is a sizeable part of
 * a short game).
 */
const LOOKAHEAD = 2;

const THREAD_ENTRY = fileURLToPath(new URL('./thread-main.ts', import.meta.url));

/**
 * The Node flags for a game thread: `undefined` (inherit this process's, Node's default) unless they
 * hold flags about this process's own entry (`-e`/`--eval`, `-p`/`--print` and their code,
 * `--input-type`), which make a worker refuse a file entry (the CLI run as
 * `node --input-type=module -e ...`); then the rest of them. (Given explicitly, flags Node allows only
 * per process, such as `--expose-gc`, would make it refuse the thread: hence not always explicit.)
 */
export function threadExecArgv(execArgv: readonly string[] = process.execArgv): string[] | undefined {
  const out: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const a = execArgv[i]!;
    if (a === '-e' || a === '--eval' || a === '-p' || a === '--print' || a === '-pe' || a === '--input-type') i++;
    else if (!/^(--eval|--print|--input-type)=/.test(a)) out.push(a);
  }
  return out.length === execArgv.length ? undefined : out;
}

/** Start a game thread from the bundled thread file (see `../bundle.ts`): no TypeScript compiled per thread. */
function startThread(file: string, data: unknown, resourceLimits: ResourceLimits | undefined): Worker {
  const execArgv = threadExecArgv();
  return new Worker(file, { workerData: { salientPoolThread: data }, ...(execArgv ? { execArgv } : {}), ...(resourceLimits ? { resourceLimits } : {}) });
}

/** Default ms between the store records of a running tournament (see `heartbeatMs`). */
export const HEARTBEAT_MS = 30_000;

/** Threads in a row that may die before saying they are ready before the run gives up. */
const START_FAILURES = 3;

/** The matches the store holds for `plan`, as the outcomes its matches gave (matches not in the plan left out). */
export async function recordedOutcomes(telemetry: Telemetry, plan: TournamentPlan): Promise<MatchOutcome[]> {
  const byId = new Map(plan.matches.map((m) => [m.id, m]));
  return (await recordedMatches(telemetry, plan.tournamentId)).flatMap((r) => {
    const m = byId.get(r.matchId);
    return m ? [outcomeFromRecord(m, r)] : [];
  });
}

/** A recorded match as the outcome the plan's match would have given. */
export function outcomeFromRecord(m: PlannedMatch, r: RecordedMatch): MatchOutcome {
  const decided = isDecided(r.kind);
  return {
    ...plannedPart(m),
    kind: r.kind as MatchOutcome['kind'],
    sides: decided ? r.sides : {},
    scores: decided ? r.scores : {},
    decisions: r.decisions,
    impulses: r.impulses,
    wallMs: r.wallMs,
    ...(r.kind === 'forfeit' || r.kind === 'error' ? { detail: r.detail } : {}),
    ...(r.worker ? { worker: r.worker } : {}),
  };
}

interface Slot {
  thread: Worker;
  served: ServedSink | undefined;
  /** Matches handed to the thread and not yet reported, in the order it plays them (the first is running). */
  matches: PlannedMatch[];
  /** Set once the thread said it is ready. */
  ready: boolean;
  closing: boolean;
  gone: boolean;
  lastError: string | undefined;
  onClosed?: () => void;
  /** Process groups of external bots the thread started and has not yet closed. */
  botGroups: Set<number>;
}

/** Play `plan` on a pool of worker threads. See the file comment. */
export async function runLocalTournament(o: LocalRunOptions): Promise<LocalRunResult> {
  const { plan, telemetry, signal } = o;
  const started = performance.now();
  const byId = new Map(plan.matches.map((m) => [m.id, m]));
  const outcomes: MatchOutcome[] = telemetry && o.resume !== false ? await recordedOutcomes(telemetry, plan) : [];
  const skipped = outcomes.length;
  const recorded = new Set(outcomes.map((x) => x.matchId));
  const queue = plan.matches.filter((m) => !recorded.has(m.id));
  // The stop rule takes outcomes in plan order: `early` holds those that came before their turn.
  const rule = createStopRule(plan.spec.stop, stopContextOf(plan.spec));
  const early = new Map<string, MatchOutcome>(outcomes.map((x) => [x.matchId, x]));
  let next = 0;
  let stopped: string | undefined;
  const slots: Slot[] = [];
  const observe = (x?: MatchOutcome): void => {
    if (x) early.set(x.matchId, x);
    for (let m = plan.matches[next]; m && early.has(m.id); m = plan.matches[++next]) {
      rule.observe(early.get(m.id) as MatchOutcome);
      early.delete(m.id);
    }
    if (stopped !== undefined || queue.length === 0) return;
    const d = rule.decided();
    if (!d.stop) return;
    // Decided: hand nothing more out, and have the threads drop what they hold but have not started.
    stopped = d.reason ?? 'the stop rule decided';
    queue.length = 0;
    for (const s of slots) if (s.matches.length > 1 && !s.gone) s.thread.postMessage({ pool: 'drop' } satisfies ToThread);
  };
  observe();
  const wanted = o.threads ?? availableParallelism();
  if (!Number.isInteger(wanted) || wanted < 1) throw new SalientError('BAD_ARGUMENT', `threads must be a whole number of at least 1; got ${wanted}.`);
  const threads = Math.max(1, Math.min(wanted, queue.length));
  let played = 0;
  let threadDeaths = 0;
  const attempts = new Map<string, number>();
  const progress = (): void => {
    if (!o.onProgress) return;
    const elapsedMs = performance.now() - started;
    const gamesPerSec = played > 0 ? played / (elapsedMs / 1000) : 0;
    const left = plan.matches.length - outcomes.length;
    o.onProgress({
      tournamentId: plan.tournamentId,
      total: plan.matches.length,
      done: outcomes.length,
      skipped,
      played,
      running: slots.filter((s) => s.matches.length > 0).length,
      elapsedMs,
      gamesPerSec,
      etaMs: gamesPerSec > 0 ? (left / gamesPerSec) * 1000 : undefined,
      outcomes,
      ...(rule.status ? { stop: rule.status() } : {}),
      ...(stopped !== undefined ? { stopped } : {}),
    });
  };
  progress();
  // What the store knows of the tournament besides its matches: planned, running, then how it ended.
  const startedAt = new Date();
  // A server that went away mid-run fails nothing: the matches are spooled, and the record is written
  // again by the next run of this tournament (the heartbeat or the end, whichever answers first).
  const record = async (state: 'running' | 'finished' | 'cancelled' | 'failed'): Promise<void> =>
    telemetry?.recordTournament(tournamentRecord(plan, 'local', state, startedAt)).catch((e: unknown) => {
      if (e instanceof SalientError && e.code === 'TELEMETRY_UNREACHABLE') return;
      throw e;
    });
  if (queue.length === 0 || signal?.aborted) {
    if (queue.length === 0) await record('finished');
    return finish(false);
  }
  await record('running');

  const threadFile = await bundleEntry(THREAD_ENTRY, 'pool-thread', o.cacheDir);
  const sink = telemetry?.sink(o.sinkOptions ?? {});
  let storeError: unknown;
  let resolveAll!: () => void;
  const allDone = new Promise<void>((r) => (resolveAll = r));
  let cancelled = false;
  /** Threads that died before they were ready, since the last one that got there. */
  let startFailures = 0;
  let startError: SalientError | undefined;
  const busy = () => slots.some((s) => s.matches.length > 0);
  const checkDone = () => {
    if ((queue.length === 0 || cancelled) && !busy()) resolveAll();
  };

  const handOut = (s: Slot): void => {
    while (!s.gone && s.ready && !cancelled && s.matches.length < LOOKAHEAD) {
      const m = queue.shift();
      if (!m) return checkDone();
      s.matches.push(m);
      s.thread.postMessage({ pool: 'play', match: m, ...(o.dieOn?.includes(m.id) ? { die: true } : {}) } satisfies ToThread);
    }
  };

  const finishMatch = (s: Slot, outcome: MatchOutcome): void => {
    s.matches = s.matches.filter((m) => m.id !== outcome.matchId);
    outcomes.push(outcome);
    played++;
    observe(outcome);
    progress();
    handOut(s);
    checkDone();
  };

  const spawn = (): Slot => {
    const thread = startThread(threadFile, {
      telemetry: sink !== undefined,
      worker: `${hostname()}:${process.pid}`,
      ...(o.remoteSinkOptions ? { sinkOptions: o.remoteSinkOptions } : {}),
      ...(o.bots ? { bots: o.bots } : {}),
    }, o.resourceLimits);
    const s: Slot = { thread, served: undefined, matches: [], ready: false, closing: false, gone: false, lastError: undefined, botGroups: new Set() };
    if (sink) s.served = serveSink(thread, sink, (e) => (storeError ??= e));
    thread.on('message', (v: unknown) => {
      const m = v as ToPool;
      if (!m || typeof m !== 'object' || !('pool' in m)) return;
      if (m.pool === 'ready') {
        s.ready = true;
        startFailures = 0;
        handOut(s);
      } else if (m.pool === 'done') {
        finishMatch(s, m.outcome);
      } else if (m.pool === 'failed') {
        const match = byId.get(m.matchId);
        if (match) finishMatch(s, errorOutcome(match, m.error));
      } else if (m.pool === 'dropped') {
        // Handed out, not started, and dropped on cancel: not played.
        s.matches = s.matches.filter((x) => x.id !== m.matchId);
        checkDone();
      } else if (m.pool === 'closed') {
        if (m.error) storeError ??= new Error(m.error);
        s.onClosed?.();
      } else if (m.pool === 'bot-process') {
        if (m.alive) s.botGroups.add(m.pid);
        else s.botGroups.delete(m.pid);
      }
    });
    thread.on('error', (e) => (s.lastError = e instanceof Error ? e.message : String(e)));
    thread.on('exit', (code) => {
      s.gone = true;
      // A thread that died or was terminated mid-match leaves its bots' processes running: end them here.
      for (const pid of s.botGroups) killBotGroup(pid);
      s.botGroups.clear();
      s.served?.stop();
      s.onClosed?.();
      if (s.closing) return;
      threadDeaths++;
      const [m, ...waiting] = s.matches;
      s.matches = [];
      const why = s.lastError ?? `exit code ${code}`;
      if (!s.ready && ++startFailures >= START_FAILURES) {
        // Not a match's fault: every thread would die the same way. Stop rather than start threads forever.
        startError ??= new SalientError(
          'POOL_THREAD_START',
          `${START_FAILURES} game threads in a row died before they were ready (last: ${why}). ` +
            'Nothing was lost: the matches recorded so far stay, and running the tournament again plays the rest. ' +
            'Fix what the reason names (a thread memory limit too small to load the game; an incomplete install: run npm install) and run it again.',
        );
        resolveAll();
        return;
      }
      // Matches it had not started go back first in the queue, in order, without counting as an attempt.
      if (!cancelled && stopped === undefined) queue.unshift(...waiting);
      if (m) {
        const n = (attempts.get(m.id) ?? 0) + 1;
        attempts.set(m.id, n);
        if (n >= 2 || cancelled) {
          const failed = errorOutcome(m, n >= 2 ? `the game thread playing it died twice (${why})` : `its game thread died during a cancel (${why})`);
          outcomes.push(failed);
          played++;
          observe(failed);
          progress();
        } else if (stopped === undefined) queue.unshift(m);
      }
      const i = slots.indexOf(s);
      if (!cancelled && queue.length > 0) slots[i] = spawn();
      checkDone();
    });
    return s;
  };

  for (let i = 0; i < threads; i++) slots.push(spawn());

  const onAbort = () => {
    cancelled = true;
    for (const s of slots) if (s.matches.length && !s.gone) s.thread.postMessage({ pool: 'abort' } satisfies ToThread);
    checkDone();
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted) onAbort();

  // Renewed while the run lives; the final record below is newer, so it wins whatever the order of the inserts.
  const heartbeat = setInterval(() => void record('running').catch(() => {}), o.heartbeatMs ?? HEARTBEAT_MS);
  heartbeat.unref();
  let grace: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      allDone,
      new Promise<void>((resolve) =>
        signal?.addEventListener('abort', () => (grace = setTimeout(resolve, o.cancelGraceMs ?? 10_000)), { once: true }),
      ),
    ]);
  } finally {
    clearInterval(heartbeat);
    signal?.removeEventListener('abort', onAbort);
    if (grace) clearTimeout(grace);
    // Close every thread: its RemoteSink posts what it holds and waits for this side to drain.
    await Promise.all(
      slots.map(async (s) => {
        s.closing = true;
        if (s.gone) return;
        if (!s.matches.length) {
          await Promise.race([
            new Promise<void>((r) => {
              s.onClosed = r;
              s.thread.postMessage({ pool: 'close' } satisfies ToThread);
            }),
            new Promise<void>((r) => setTimeout(r, 30_000).unref()),
          ]);
        }
        s.served?.stop();
        await s.thread.terminate();
      }),
    );
    if (sink) await sink.drain();
  }
  if (startError || storeError) {
    // The record says the run stopped; the error that stopped it is what the caller hears.
    await record('failed').catch(() => {});
    throw startError ?? storeError;
  }
  await record(cancelled && outcomes.length < plan.matches.length ? 'cancelled' : 'finished');
  return finish(cancelled);

  function finish(wasCancelled: boolean): LocalRunResult {
    // The decision is the one taken in plan order; what comes after a hole only adds to the figures.
    const decision = rule.decided();
    // Outcomes still waiting for their turn (the plan has holes once stopped or cancelled) count now.
    for (const x of [...early.values()].sort((a, b) => a.index - b.index)) rule.observe(x);
    early.clear();
    const finished = outcomes.filter((x) => x.kind !== 'cancelled').length;
    return {
      ...(rule.status ? { stop: rule.status(), decision } : {}),
      ...(stopped !== undefined ? { stopped: { reason: stopped, unplayed: plan.matches.length - finished } } : {}),
      tournamentId: plan.tournamentId,
      outcomes: [...outcomes].sort((a, b) => a.index - b.index),
      played,
      skipped,
      threadDeaths,
      cancelled: wasCancelled || signal?.aborted === true,
      threads: slots.length ? threads : 0,
      wallMs: performance.now() - started,
    };
  }
}
