/**
 * What each worker's telemetry spool holds, kept in Redis beside the queue so that whoever looks at
 * a tournament (`salient tournament status`, the API's /health) sees matches that were played but
 * wait for the ClickHouse server. Each worker writes its own key while its spool is not empty, with
 * a short expiry renewed as it watches, so a worker that died stops being reported after a while
 * (its spool waits on its host for the next process that opens the store there).
 */
import type { Redis } from 'ioredis';
import { workerSpoolKey, WORKER_SPOOL_PATTERN } from './names.ts';

/** One worker's spool. */
export interface WorkerSpool {
  worker: string;
  /** Finished matches waiting for the store. */
  pending: number;
  /** When the oldest of them was spooled (ISO). */
  oldestAt?: string;
  /** When this worker's spool last went from empty to not empty (ISO). */
  since?: string;
  /** When the worker last looked (ISO). */
  updatedAt: string;
}

/** Seconds a report outlives its worker's last look. */
export const SPOOL_REPORT_TTL_S = 30;

/** Write (pending > 0) or clear (pending 0) `s` as this worker's report. */
export async function publishSpool(redis: Redis, s: WorkerSpool): Promise<void> {
  const key = workerSpoolKey(s.worker);
  if (s.pending > 0) await redis.set(key, JSON.stringify(s), 'EX', SPOOL_REPORT_TTL_S);
  else await redis.del(key);
}

/** Every live worker's report of a non-empty spool, by worker name. */
export async function readSpools(redis: Redis): Promise<WorkerSpool[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', WORKER_SPOOL_PATTERN, 'COUNT', 200);
    cursor = next;
    keys.push(...found);
  } while (cursor !== '0');
  if (keys.length === 0) return [];
  const values = await redis.mget(...keys);
  const out: WorkerSpool[] = [];
  for (const v of values) {
    if (v === null) continue; // expired between the scan and the read
    try {
      out.push(JSON.parse(v) as WorkerSpool);
    } catch {
      // Not ours to judge; skipped.
    }
  }
  return out.sort((a, b) => a.worker.localeCompare(b.worker));
}
