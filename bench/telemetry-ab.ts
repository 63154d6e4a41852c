/**
 * A/B of what telemetry costs the game thread, in one process: the runner and telemetry sinks of
 * another checkout (BENCH_AB_BASE, e.g. a `git archive main` unpacked with node_modules linked) against
 * this one's, playing the same Blitz! scenario A games (this checkout's game and bots on both sides, so
 * only the telemetry path differs), random bots on both seats. For each side, in small blocks taken in
 * turn (so both see the same machine load, which on a shared VM swings by tens of percent):
 *
 *   - `none`: no sink, the baseline;
 *   - `drop`: a sink that keeps nothing and asks for one decision in ten (about what a store sink
 *     keeps): what the runner pays to build rows (state hash and summary per impulse, row objects);
 *   - `lines`: a `RemoteSink` encoding every row as a ClickHouse line (the default until `packed`);
 *   - `rows`: a `RemoteSink` posting the runner's rows unencoded (`encoding: 'rows'`), the store's
 *     thread encoding them;
 *   - `packed`: a `RemoteSink` posting the rows packed as numbers and strings (`encoding: 'packed'`),
 *     for a side whose RemoteSink has it (a side without it skips the case);
 *   - `port`: `packed` over a real port, to a worker thread that acknowledges each batch and drops it
 *     (what posting across threads adds to the game thread: the copy, the acknowledgements' wake-ups);
 *   - `burn`: no sink, while another thread spins on the other core: how much more CPU time the game
 *     thread's same instructions take when the sibling core is busy (on a 2-vCPU VM whose vCPUs may
 *     share a physical core, or caches), which is what a store's threads do to it in bench:telemetry.
 *
 * The RemoteSinks post to a port that serializes each message as `postMessage` does on the sending side
 * (`v8.serialize`) and acknowledges it on the next turn, so what is measured is the game thread's part
 * alone: the store is elsewhere (bench:telemetry measures it). Time is CPU time of this thread
 * (/proc/thread-self/schedstat, GC helper threads not counted) and of the process (`process.cpuUsage`),
 * per game; overheads are against the same side's `none` (sum over blocks, and the median of per-block ratios).
 *
 *   BENCH_AB_BASE=/tmp/base BENCH_BLOCKS=50 BENCH_PER=10 node --import tsx --expose-gc bench/telemetry-ab.ts
 *
 * Environment: BENCH_AB_BASE (required), BENCH_BLOCKS (default 40), BENCH_PER (games per block and
 * case, default 10), BENCH_WARM (warm-up games per case, default 150), BENCH_CASES (default none,drop,lines,rows,packed).
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serialize } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { SalientError } from '@salient/engine';
import { blitz } from '@salient/game-blitz';
import { createBot } from '@salient/bots';
import type { runMatch as RunMatch, TelemetrySink } from '@salient/runner';
import type { RemoteSink as RemoteSinkClass, SinkPort } from '@salient/telemetry';
import { blitzPack, envInt, median, ownCpuMs, statCpuMs, threadCpuClock, threadCpuMs } from './support.ts';

const here = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const baseDir = process.env.BENCH_AB_BASE;
if (!baseDir) throw new SalientError('BAD_ARGUMENT', 'BENCH_AB_BASE must name the other checkout');
const CASES = ['none', 'drop', 'lines', 'rows', 'packed', 'port', 'burn'] as const;
type CaseName = (typeof CASES)[number];

interface Side {
  name: string;
  runMatch: typeof RunMatch;
  RemoteSink: typeof RemoteSinkClass;
}
async function load(name: string, dir: string): Promise<Side> {
  const { runMatch } = await import(join(dir, 'packages/runner/src/index.ts'));
  const { RemoteSink } = await import(join(dir, 'packages/telemetry/src/remote-sink.ts'));
  return { name, runMatch, RemoteSink };
}

/** A port that serializes what is posted as `postMessage` does, and acknowledges it on the next turn. */
function serializingPort(): SinkPort {
  let listener: ((v: unknown) => void) | undefined;
  return {
    postMessage(m: unknown) {
      serialize(m);
      const msg = m as { salientSink: string; id?: number };
      const answer = msg.salientSink === 'close' ? { salientSink: 'closed' } : { salientSink: 'ack', id: msg.id };
      setImmediate(() => listener?.(answer));
    },
    on(_event: 'message', l: (v: unknown) => void) {
      listener = l;
    },
    off() {
      listener = undefined;
    },
  };
}

/** The worker threads started, ended at the end. */
const threads: Worker[] = [];
/** Thread ids of the workers that receive the `port` case's batches. */
const receivers: string[] = [];

/** CPU ms of the receiving workers so far (0 where /proc cannot be read). */
function receiversCpuMs(): number {
  let ms = 0;
  for (const tid of receivers) {
    try {
      ms += statCpuMs(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8'));
    } catch {
      // gone, or no /proc
    }
  }
  return ms;
}

/** A worker thread that acknowledges every batch a RemoteSink posts and keeps nothing. */
function droppingWorker(): Worker {
  const code = `const { parentPort } = require('node:worker_threads');
parentPort.postMessage({ benchTid: require('node:fs').readlinkSync('/proc/thread-self').split('/').pop() });
parentPort.on('message', (m) => {
  if (m && m.salientSink === 'close') parentPort.postMessage({ salientSink: 'closed' });
  else if (m && typeof m.id === 'number') parentPort.postMessage({ salientSink: 'ack', id: m.id });
});`;
  const w = new Worker(code, { eval: true });
  w.on('message', (m: { benchTid?: string }) => {
    if (m?.benchTid) receivers.push(m.benchTid);
  });
  threads.push(w);
  return w;
}

/** A worker thread that spins while \`on\` is set (and sleeps, using no CPU, while it is not). */
function burner(): { on(): void; off(): void } {
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const code = `const { workerData } = require('node:worker_threads');
const flag = new Int32Array(workerData);
let x = 0;
for (;;) {
  Atomics.wait(flag, 0, 0);
  while (Atomics.load(flag, 0) === 1) for (let i = 0; i < 100000; i++) x = (x + i * i) | 0;
}`;
  const w = new Worker(code, { eval: true, workerData: flag.buffer });
  threads.push(w);
  return {
    on() {
      Atomics.store(flag, 0, 1);
      Atomics.notify(flag, 0);
    },
    off() {
      Atomics.store(flag, 0, 0);
    },
  };
}

/** Keeps nothing; keeps (asks for) one decision in ten, about as many as a store sink keeps by default. */
class DropSink implements TelemetrySink {
  impulse(): void {}
  event(): void {}
  decision(): void {}
  match(): void {}
  keepsDecision(_matchId: string, seq: number): boolean {
    return seq % 10 === 0;
  }
}

interface Case {
  side: Side;
  name: CaseName;
  sink: TelemetrySink | undefined;
  thread: number[];
  process: number[];
  /** CPU of the worker receiving the batches (the `port` case), ms per game. */
  receiver: number[];
}

async function main(): Promise<void> {
  const blocks = envInt('BENCH_BLOCKS', 40);
  const per = envInt('BENCH_PER', 10);
  const warm = envInt('BENCH_WARM', 150);
  const asked = (process.env.BENCH_CASES || CASES.join(',')).split(',').map((s) => s.trim()) as CaseName[];
  for (const c of asked) if (!CASES.includes(c)) throw new SalientError('BAD_ARGUMENT', `BENCH_CASES: unknown case '${c}'; use ${CASES.join(', ')}`);
  const names = CASES.filter((c) => c === 'none' || asked.includes(c));
  const sides = [await load('base', resolve(baseDir as string)), await load('this', here)];
  const pack = blitzPack();
  const seats = { Axis: 'random', Allies: 'random' } as const;
  const cases: Case[] = [];
  const burn = asked.includes('burn') ? burner() : undefined;
  for (const side of sides) {
    for (const name of names) {
      let sink: TelemetrySink | undefined;
      try {
        sink =
          name === 'none' || name === 'burn'
            ? undefined
            : name === 'port'
              ? (new side.RemoteSink(droppingWorker(), { encoding: 'packed', decisionSample: 0.1 }) as unknown as TelemetrySink)
            : name === 'drop'
              ? new DropSink()
              : (new side.RemoteSink(serializingPort(), name === 'lines' ? { encoding: 'lines' } : { encoding: name, decisionSample: 0.1 }) as unknown as TelemetrySink);
      } catch (e) {
        // An older RemoteSink refuses an encoding it does not have (its SalientError is the other
        // checkout's class, so it is known by its code, not by instanceof).
        if ((e as { code?: unknown }).code === 'BAD_ARGUMENT') continue;
        throw e;
      }
      cases.push({ side, name, sink, thread: [], process: [], receiver: [] });
    }
  }
  const play = (c: Case, seed: number) =>
    c.side.runMatch({
      game: blitz,
      pack,
      scenario: 'A',
      seed,
      seats: { Axis: createBot('random'), Allies: createBot('random') },
      seatSpecs: { ...seats },
      ...(c.sink ? { sink: c.sink } : {}),
    });
  const load0 = loadavg()[0] ?? 0;
  for (let i = 0; i < warm; i++) for (const c of cases) if (c.name !== 'burn') await play(c, 1_000_000_000 + i);
  for (let b = 0; b < blocks; b++) {
    globalThis.gc?.();
    for (let k = 0; k < cases.length; k++) {
      // Rotate the order, so no case always follows the same one.
      const c = cases[(k + b) % cases.length] as Case;
      if (c.name === 'burn') burn?.on();
      const t0 = threadCpuMs();
      const p0 = ownCpuMs();
      const r0 = receiversCpuMs();
      for (let i = 0; i < per; i++) await play(c, 1 + b * per + i);
      c.thread.push((threadCpuMs() - t0) / per);
      c.process.push((ownCpuMs() - p0) / per);
      c.receiver.push((receiversCpuMs() - r0) / per);
      if (c.name === 'burn') burn?.off();
    }
  }
  const load1 = loadavg()[0] ?? 0;
  const sum = (xs: readonly number[]) => xs.reduce((a, x) => a + x, 0);
  const pct = (a: readonly number[], b: readonly number[]) =>
    `${((sum(a) / sum(b) - 1) * 100).toFixed(1)}% (median block ${((median(a.map((x, i) => x / (b[i] as number))) - 1) * 100).toFixed(1)}%)`;
  const lines = [
    `Telemetry A/B, Blitz A random vs random, ${blocks} blocks of ${per} games per case, ${warm} warm-up games each; base ${baseDir}; load average ${load0.toFixed(2)} at the start, ${load1.toFixed(2)} at the end; thread clock: ${threadCpuClock()}.`,
    '',
    '| side | case | game-thread CPU ms/game | game-thread overhead | process CPU ms/game (burn: with the burner) | process overhead | of which the receiving worker, ms/game | other threads (V8 helpers: GC, compiler), ms/game |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const c of cases) {
    const base = cases.find((x) => x.side === c.side && x.name === 'none') as Case;
    const over = c.name === 'none' ? ['—', '—'] : [pct(c.thread, base.thread), pct(c.process, base.process)];
    const others = c.name === 'burn' ? '—' : ((sum(c.process) - sum(c.thread) - sum(c.receiver)) / blocks).toFixed(3);
    lines.push(`| ${c.side.name} | ${c.name} | ${(sum(c.thread) / blocks).toFixed(3)} | ${over[0]} | ${(sum(c.process) / blocks).toFixed(3)} | ${over[1]} | ${(sum(c.receiver) / blocks).toFixed(3)} | ${others} |`);
  }
  lines.push('', 'this against base, same case (game-thread CPU):');
  for (const name of names) {
    const [a, b] = sides.map((s) => cases.find((c) => c.side === s && c.name === name));
    if (a && b) lines.push(`- ${name}: ${pct(b.thread, a.thread)}`);
  }
  process.stdout.write(lines.join('\n') + '\n');
  await Promise.all(threads.map((w) => w.terminate()));
}

await main();
