/**
 * Tournaments played under real faults, each returning what became of its matches: planned,
 * recorded in ClickHouse (once the spools are delivered), recorded more than once, lost, and how many
 * jobs the queue gave up on. `test/faults.test.ts` runs short versions (a few hundred quick matches,
 * faults on a timer); `bench/faults.bench.ts` runs the long ones and writes the figures to
 * bench/RESULTS.md. Every run must end with nothing lost and nothing counted twice.
 */
import { spawn } from 'node:child_process';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { MATCH_QUEUE, retryTournament, submitTournament, tournamentStatus, type TournamentStatus } from '@salient/scheduler/bullmq';
import { blitzPlan } from '../../packages/scheduler/test/bullmq-support.ts';
import { ROOT, sleep, waitFor, type Cluster, type WorkerProc } from './cluster.ts';

/** What became of one fault run's matches. */
export interface FaultFigures {
  fault: string;
  planned: number;
  /** Distinct matches in the store after the spools were delivered. */
  recorded: number;
  /** Copies beyond one per match (in reads with FINAL, as every report reads). */
  doubled: number;
  /** Planned and not recorded. */
  lost: number;
  /** Matches whose job the queue gave up on (before any retry the run makes). */
  failedJobs: number;
  /** Matches spooled at the worst moment (summed over workers). */
  spooledPeak: number;
  wallMs: number;
  /** Details worth printing (kills made, retries, and the like). */
  notes: string[];
}

/** A plan of `n` matches (side-swapped pairs on seeds from `seed0`), Axis `axis` against `random`. */
export function pairsPlan(tournamentId: string, n: number, axis: string, seed0 = 1) {
  return blitzPlan(
    tournamentId,
    Array.from({ length: n }, (_, i) => [i % 2 === 0 ? axis : 'random', i % 2 === 0 ? 'random' : axis, seed0 + Math.floor(i / 2)] as [string, string, number]),
  );
}

/** A few ms of play per decision of one seat: a quick match lasts about a tenth of a second. */
export const PACED = 'crash:after=0,sleep=2';

async function finished(c: Cluster, id: string, timeoutMs: number): Promise<TournamentStatus> {
  return waitFor(`tournament ${id} to finish`, async () => {
    const s = await tournamentStatus(id, { connection: c.redis.url }).catch(() => undefined);
    return s?.state === 'finished' ? s : undefined;
  }, timeoutMs, 250);
}

/** Match files in a spool directory: waiting (`<id>.jsonl`) or claimed by a delivery in flight (`.<id>.jsonl.<host>.<pid>.claim`). */
async function spoolFiles(dir: string): Promise<number> {
  if (dir === '') return 0;
  const names = await readdir(dir).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return [] as string[];
    throw e;
  });
  return names.filter((n) => n.endsWith('.jsonl') || n.endsWith('.claim')).length;
}

/**
 * Wait until the workers' spools are delivered: no live worker reports a spooled match, and no spool
 * directory (a dead worker's included) holds a match file, waiting or claimed. The workers' /health
 * figure alone was not enough, and under load it made the outage test flaky: it is the worker's
 * last look at its spool (once a second), so a match spooled since reads as 0; and it leaves out a
 * file claimed by a delivery whose insert has not returned yet. Either way the figures were read one
 * match short ("lost"), the match arriving a moment later.
 */
async function spoolsEmpty(workers: readonly WorkerProc[], timeoutMs: number): Promise<void> {
  await waitFor('the worker spools to be delivered', async () => {
    for (const w of workers) {
      if (await spoolFiles(w.spoolDir)) return undefined;
      if (!w.alive) continue;
      const h = (await (await w.get('/health')).json()) as { telemetry?: { pending?: number } };
      if ((h.telemetry?.pending ?? 0) > 0) return undefined;
    }
    return true;
  }, timeoutMs, 250);
}

/**
 * Peak of spooled matches over the workers, sampled while `until` is pending: the larger of what the
 * workers report and the match files in their spool directories. The workers are asked at once, each
 * given half a second: a replacement worker still starting (seconds under load) used to hold up every
 * sample until it listened, so the outage's spooled matches could be delivered unseen and the peak
 * read 0. A worker's figure is its last look at its spool (once a second) and a loaded worker may not
 * answer in time, so the directories are counted too (`spooled` adds a sample taken at a chosen moment).
 */
function watchSpooled(workers: () => readonly WorkerProc[], until: Promise<unknown>): { peak: Promise<number>; sample: () => Promise<number> } {
  let peak = 0;
  let done = false;
  void until.finally(() => (done = true));
  const pendingOf = async (w: WorkerProc): Promise<number> => {
    const asked = w
      .get('/health')
      .then(async (r) => ((await r.json()) as { telemetry?: { pending?: number } }).telemetry?.pending ?? 0)
      .catch(() => 0); // starting or gone
    return Promise.race([asked, sleep(500).then(() => 0)]);
  };
  const onDisk = async (): Promise<number> => {
    const dirs = [...new Set(workers().map((w) => w.spoolDir))];
    return (await Promise.all(dirs.map(spoolFiles))).reduce((a, b) => a + b, 0);
  };
  const sample = async (): Promise<number> => {
    const [reported, files] = await Promise.all([
      Promise.all(workers().filter((w) => w.alive).map(pendingOf)).then((p) => p.reduce((a, b) => a + b, 0)),
      onDisk(),
    ]);
    peak = Math.max(peak, reported, files);
    return peak;
  };
  const watched = (async () => {
    while (!done) {
      await sample();
      await sleep(100);
    }
    return peak;
  })();
  return { peak: watched.then(() => peak), sample };
}

async function figures(c: Cluster, fault: string, id: string, planned: number, failedJobs: number, spooledPeak: number, t0: number, notes: string[]): Promise<FaultFigures> {
  const s = await c.stored(id);
  return { fault, planned, recorded: s.recorded, doubled: s.doubled, lost: planned - s.recorded, failedJobs, spooledPeak, wallMs: Date.now() - t0, notes };
}

/**
 * The ClickHouse server is down when the workers start and while they play: every match is played
 * and spooled, no job fails, and once the server starts the workers migrate its schema (when
 * `fresh`) and deliver. `workers` are started here; they stay up for later runs.
 */
export async function storeDownAtStart(c: Cluster, n: number, names: readonly string[] = ['down-1']): Promise<{ figures: FaultFigures; workers: WorkerProc[]; during: TournamentStatus; health: unknown }> {
  const t0 = Date.now();
  const id = 'f-store-down';
  await c.ch.stop();
  const workers = names.map((name) => c.startWorker(name));
  await Promise.all(workers.map((w) => w.metricsPort));
  await submitTournament(pairsPlan(id, n, 'random'), { connection: c.redis.url });
  const done = await finished(c, id, 120_000);
  // Played and spooled: what the operator sees meanwhile.
  await waitFor('the spool to be reported', async () => {
    const s = await tournamentStatus(id, { connection: c.redis.url });
    return s.spool.reduce((k, w) => k + w.pending, 0) === n ? true : undefined;
  }, 10_000);
  const during = await tournamentStatus(id, { connection: c.redis.url });
  const health = await (await workers[0]!.get('/health')).json();
  const peak = during.spool.reduce((k, w) => k + w.pending, 0);
  await c.ch.restart();
  await spoolsEmpty(workers, 60_000);
  const out = await figures(c, 'ClickHouse down when the workers start', id, n, done.counts.failed, peak, t0, []);
  return { figures: out, workers, during, health };
}

/**
 * Killed (SIGKILL) mid-run and restarted after `downMs`, with one worker killed and replaced (same
 * spool directory, as on the same host) while it is down; later stopped (SIGSTOP: it accepts
 * connections and answers nothing) for `hangMs`. Workers write with `writeTimeoutMs` (default: the
 * product's, 10 s).
 */
export async function storeOutage(
  c: Cluster,
  n: number,
  o: { killAtMs: number; downMs: number; hangAtMs: number; hangMs: number; workers?: number; writeTimeoutMs?: number },
): Promise<FaultFigures> {
  const t0 = Date.now();
  const id = 'f-store-outage';
  const env: Record<string, string> = o.writeTimeoutMs !== undefined ? { SALIENT_CLICKHOUSE_WRITE_TIMEOUT_MS: String(o.writeTimeoutMs) } : {};
  const spoolOf = (i: number) => join(c.dir, `outage-spool-${i}`);
  let workers = Array.from({ length: o.workers ?? 2 }, (_, i) => c.startWorker(`outage-${i}`, { env, spoolDir: spoolOf(i) }));
  await Promise.all(workers.map((w) => w.metricsPort));
  await submitTournament(pairsPlan(id, n, PACED, 1000), { connection: c.redis.url });
  const notes: string[] = [];
  const run = finished(c, id, 240_000);
  const spooled = watchSpooled(() => workers, run);
  const completed = async () => (await tournamentStatus(id, { connection: c.redis.url })).counts.completed;
  const faults = (async () => {
    await sleep(o.killAtMs);
    await c.ch.kill();
    const atKill = await completed();
    notes.push(`ClickHouse killed at ${Date.now() - t0} ms`);
    await sleep(o.downMs / 2);
    // A worker dies while the store is away: its spool stays on the host for its replacement.
    const victim = workers[0]!;
    victim.killGroup('SIGKILL');
    await victim.exited;
    const replacement = c.startWorker('outage-0b', { env, spoolDir: spoolOf(0) });
    workers = [replacement, ...workers.slice(1)];
    notes.push(`worker outage-0 killed and replaced at ${Date.now() - t0} ms`);
    await sleep(o.downMs / 2);
    // Some match must have ended while the store was away (on a loaded machine the workers may still be
    // starting when the timer fires), and its rows must be in a spool when the store comes back.
    await waitFor('a match to end while ClickHouse is down', async () => ((await completed()) > atKill ? true : undefined), 120_000, 100);
    await spooled.sample();
    await c.ch.restart();
    notes.push(`ClickHouse back at ${Date.now() - t0} ms`);
    await sleep(Math.max(0, o.hangAtMs - (Date.now() - t0)));
    const before = (await tournamentStatus(id, { connection: c.redis.url })).counts.completed;
    c.ch.pause();
    notes.push(`ClickHouse stopped (SIGSTOP) at ${Date.now() - t0} ms for ${o.hangMs} ms`);
    await sleep(o.hangMs);
    const during = (await tournamentStatus(id, { connection: c.redis.url })).counts.completed - before;
    c.ch.resume();
    notes.push(`${during} matches finished while it was stopped`);
  })();
  const [done] = await Promise.all([run, faults]);
  await spoolsEmpty(workers, 60_000);
  for (const w of workers) w.killGroup('SIGTERM');
  await Promise.all(workers.map((w) => w.exited));
  return figures(c, 'ClickHouse killed, then hung (SIGSTOP), mid-run', id, n, done.counts.failed, await spooled.peak, t0, notes);
}

/**
 * One long pair whose worker is killed each time it plays it, one kill more than the stall limit
 * allows, so the queue gives it up (an infrastructure fault); `tournament retry` then plays it.
 */
export async function stallThenRetry(c: Cluster, kills = 3): Promise<{ figures: FaultFigures; failed: TournamentStatus['failed'] }> {
  const t0 = Date.now();
  const id = 'f-stall';
  const flags = { concurrency: 1, lockMs: 1000, stalledMs: 500, graceMs: 500 };
  await submitTournament(pairsPlan(id, 2, 'crash:after=0,sleep=40'), { connection: c.redis.url });
  const notes: string[] = [];
  const queue = new Queue(MATCH_QUEUE, { connection: { url: c.redis.url } });
  for (let k = 1; k <= kills; k++) {
    const w = c.startWorker(`stall-${k}`, flags);
    // Taken by this worker (a dead worker's job stays active until a live worker finds it stalled).
    await waitFor(`worker stall-${k} to play the pair`, async () => ((await queue.getActive()).some((j) => j.processedBy === w.name) ? true : undefined), 30_000, 100);
    await sleep(300);
    w.killGroup('SIGKILL');
    await w.exited;
    notes.push(`kill ${k} at ${Date.now() - t0} ms`);
  }
  const last = c.startWorker('stall-final', flags);
  const failedState = await waitFor('the queue to give the pair up', async () => {
    const s = await tournamentStatus(id, { connection: c.redis.url });
    return s.counts.failed > 0 ? s : undefined;
  }, 30_000, 200);
  await queue.close();
  const retried = await retryTournament(id, { connection: c.redis.url });
  notes.push(`retry re-queued ${retried.requeued}`);
  await finished(c, id, 60_000);
  await spoolsEmpty([last], 30_000);
  last.killGroup('SIGTERM');
  await last.exited;
  return { figures: await figures(c, 'a pair whose worker is killed every time (stall limit), then retried', id, 2, failedState.counts.failed, 0, t0, notes), failed: failedState.failed };
}

/** Workers killed outright (SIGKILL of the process group) on a timer, each replaced. */
export async function workerKills(c: Cluster, n: number, o: { kills: number; everyMs: number; workers?: number }): Promise<FaultFigures> {
  const t0 = Date.now();
  const id = 'f-worker-kills';
  let serial = 0;
  const start = () => c.startWorker(`wk-${serial++}`, { lockMs: 1500, stalledMs: 700, spoolDir: join(c.dir, 'wk-spool') });
  let workers = Array.from({ length: o.workers ?? 2 }, start);
  await Promise.all(workers.map((w) => w.metricsPort));
  await submitTournament(pairsPlan(id, n, PACED, 5000), { connection: c.redis.url });
  const run = finished(c, id, 300_000);
  const notes: string[] = [];
  const faults = (async () => {
    for (let k = 0; k < o.kills; k++) {
      await sleep(o.everyMs);
      if ((await tournamentStatus(id, { connection: c.redis.url })).state === 'finished') break;
      const victim = workers[k % workers.length]!;
      victim.killGroup('SIGKILL');
      await victim.exited;
      workers = workers.map((w) => (w === victim ? start() : w));
      notes.push(`kill ${k + 1} at ${Date.now() - t0} ms`);
    }
  })();
  const [done] = await Promise.all([run, faults]);
  await spoolsEmpty(workers, 30_000);
  for (const w of workers) w.killGroup('SIGTERM');
  await Promise.all(workers.map((w) => w.exited));
  return figures(c, `${notes.length} worker kill(s) (SIGKILL) mid-run`, id, n, done.counts.failed, 0, t0, notes);
}

/** Redis restarted mid-run: once gracefully (SIGTERM), once killed, down for `downMs` each time (longer than a job's lock). */
export async function redisRestarts(c: Cluster, n: number, o: { downMs: number; everyMs: number }): Promise<FaultFigures> {
  const t0 = Date.now();
  const id = 'f-redis';
  const workers = [c.startWorker('rd-0', { lockMs: 1500, stalledMs: 700 }), c.startWorker('rd-1', { lockMs: 1500, stalledMs: 700 })];
  await Promise.all(workers.map((w) => w.metricsPort));
  await submitTournament(pairsPlan(id, n, PACED, 9000), { connection: c.redis.url });
  const notes: string[] = [];
  for (const how of ['stop', 'kill'] as const) {
    await sleep(o.everyMs);
    await c.redis[how]();
    notes.push(`Redis ${how === 'stop' ? 'stopped (SIGTERM)' : 'killed (SIGKILL)'} at ${Date.now() - t0} ms for ${o.downMs} ms`);
    await sleep(o.downMs);
    await c.redis.restart();
  }
  const done = await finished(c, id, 300_000);
  await spoolsEmpty(workers, 30_000);
  for (const w of workers) w.killGroup('SIGTERM');
  await Promise.all(workers.map((w) => w.exited));
  return figures(c, 'Redis stopped and killed mid-run, each longer than the job lock', id, n, done.counts.failed, 0, t0, notes);
}

/**
 * `salient tournament run` on this machine, killed (SIGKILL) `kills` times and run again each time
 * until it finishes: a rerun resumes, skipping what the store holds.
 */
export async function localKills(c: Cluster, n: number, o: { kills: number; everyMs: number }): Promise<FaultFigures> {
  const t0 = Date.now();
  const id = 'f-local';
  const spec = join(c.dir, 'local.yaml');
  await writeFile(
    spec,
    [`id: ${id}`, 'game: blitz', 'scenarios: [A]', 'entrants:', `  - { name: paced, bot: "${PACED}" }`, '  - random', 'format: round-robin', `gamesPerPairing: ${n}`, 'sideSwap: true', 'baseSeed: 1', ''].join('\n'),
  );
  const notes: string[] = [];
  const runOnce = (killAfterMs?: number): Promise<number | null> =>
    new Promise((resolve) => {
      const p = spawn(process.execPath, ['--import', 'tsx', 'apps/cli/src/main.ts', 'tournament', 'run', spec, '--quiet', '--threads', '2'], {
        cwd: ROOT,
        env: { ...c.env, SALIENT_SPOOL_DIR: join(c.dir, 'local-spool') },
        stdio: ['ignore', 'ignore', 'ignore'],
        detached: true,
      });
      const timer = killAfterMs === undefined ? undefined : setTimeout(() => p.pid !== undefined && process.kill(-p.pid, 'SIGKILL'), killAfterMs);
      p.once('exit', (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
  for (let k = 0; k < o.kills; k++) {
    const code = await runOnce(o.everyMs);
    notes.push(code === null ? `run ${k + 1} killed after ${o.everyMs} ms` : `run ${k + 1} ended (${code}) before its kill`);
  }
  const code = await runOnce();
  notes.push(`final run exit ${code}`);
  return figures(c, `local run killed (SIGKILL) ${o.kills} times, resumed`, id, n, 0, 0, t0, notes);
}
