/** Helpers shared by the benchmark scripts. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, totalmem } from 'node:os';
import { SalientError, type LoadedPack } from '@salient/engine';
import { blitz } from '@salient/game-blitz';

/** The first bundled Blitz! pack, validated. */
export function blitzPack(): LoadedPack {
  const id = Object.keys(blitz.bundledPacks)[0] as string;
  const r = blitz.checkPack(blitz.bundledPacks[id]);
  if (!r.ok) throw new SalientError('BAD_PACK', `bundled Blitz pack '${id}' fails its schema`, r.issues);
  return r.pack;
}

/** A positive whole number from the environment, or `fallback` when unset. */
export function envInt(name: string, fallback: number): number {
  const v = process.env[name];
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${name} must be a positive whole number, got '${v}'`);
  return n;
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

/**
 * Replace the block tagged `<!-- TAG:KEY -->` ... `<!-- TAG:end -->` in a results file (one block per
 * date, Node version and CPU), or append it; a missing file starts with `header`.
 */
export function updateResultsBlock(file: string, tag: string, key: string, block: string, header: string): void {
  let text = existsSync(file) ? readFileSync(file, 'utf8') : header;
  const start = text.indexOf(`<!-- ${tag}:${key} -->`);
  if (start >= 0) {
    const endTag = `<!-- ${tag}:end -->`;
    const end = text.indexOf(endTag, start);
    text = text.slice(0, start) + block + text.slice(end < 0 ? text.length : end + endTag.length);
  } else {
    text = text.replace(/\n*$/, '\n\n') + block + '\n';
  }
  writeFileSync(file, text);
}

/** The run's date, Node version and machine, as every results block is keyed and headed. */
export function machine(): { date: string; node: string; cpu: string; nproc: number; memGB: number } {
  return {
    date: new Date().toISOString().slice(0, 10),
    node: process.version,
    cpu: cpus()[0]?.model.trim().replace(/\s+/g, ' ') ?? 'unknown CPU',
    nproc: availableParallelism(),
    memGB: Math.round(totalmem() / 2 ** 30),
  };
}

/** /proc reports CPU times in clock ticks of USER_HZ, which is 100 on Linux. */
const USER_HZ = 100;

/** User + system CPU time (ms) in the text of a /proc `stat` file (a process's or a thread's). */
export function statCpuMs(stat: string): number {
  // The fields after the command name, which is in parentheses and may hold spaces.
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / USER_HZ;
}

/** CPU time (user + system, ms) of process `pid` so far, from /proc (Linux); undefined when it cannot be read. */
export function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    return statCpuMs(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** This process's CPU time so far, all its threads (ms). */
export function ownCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/**
 * CPU time (ms) of the calling thread so far: on Linux the scheduler's run time of the thread
 * (/proc/thread-self/schedstat, nanoseconds), which leaves out V8's GC and compiler helper threads
 * that `process.cpuUsage` counts; elsewhere `process.cpuUsage` (all threads).
 */
export function threadCpuMs(): number {
  if (schedstat !== false) {
    try {
      return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
    } catch {
      schedstat = false;
    }
  }
  return ownCpuMs();
}
let schedstat: boolean | undefined;

/** Which clock {@link threadCpuMs} reads. */
export function threadCpuClock(): string {
  threadCpuMs();
  return schedstat === false ? 'process.cpuUsage (every thread of the process: GC helpers included)' : 'main thread only (/proc/thread-self/schedstat; GC helper threads not counted)';
}
