/**
 * The spool: matches that could not be delivered because the server was unreachable wait here as
 * JSON-lines files, one per match id, until {@link deliverSpool} inserts them.
 *
 * A file is written to a temporary name and renamed, so a reader sees a whole match or nothing. Its
 * rows carry the same deterministic keys as a direct write, so delivering a match of which part had
 * already landed (or delivering a file twice) leaves one copy of each row. A file is deleted only
 * after every one of its rows was inserted.
 *
 * Several processes may share a spool (the match children of a worker, a worker and a later command):
 * a deliverer first claims a file by renaming it to a hidden name carrying its host and pid, so each
 * match is sent by one of them. A claim is given back when the server goes away mid-delivery, and a
 * claim whose process died on this host is taken back by the next look at the spool.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, join } from 'node:path';
import { SalientError } from '@salient/engine';
import type { Store } from './client.ts';
import { reason } from './failures.ts';
import { copyOf } from './counted.ts';
import { countLanded, insertRows, type RetryPolicy } from './insert.ts';
import type { ChRow, RowLine } from './records.ts';
import { ROW_TABLES, type RowTable } from './schema.ts';

/** One line of a spool file; the row as an object or as its JSONEachRow line (written the same way). */
export interface SpoolLine {
  table: RowTable;
  row: ChRow | RowLine;
}

/** A match waiting in the spool. */
export interface SpooledMatch {
  matchId: string;
  file: string;
  bytes: number;
  /** When it was spooled (ms since the epoch). */
  spooledAt: number;
}

/** What {@link deliverSpool} did. */
export interface SpoolDelivery {
  /** Match ids delivered and removed from the spool. */
  delivered: string[];
  /** Matches still waiting (the server went away again, or nothing could be delivered). */
  pending: SpooledMatch[];
  /**
   * Files that are not spooled matches (damaged), moved to `<spool>/rejected/` so they stop no
   * delivery, each with why; the match of each must be played again to be recorded.
   */
  rejected?: { file: string; why: string }[];
}

const SUFFIX = '.jsonl';

const fileName = (matchId: string): string => `${encodeURIComponent(matchId)}${SUFFIX}`;

/** Host names may hold dots; percent-encoded (and `.` too) they cannot be confused with the separators. */
const HOST = encodeURIComponent(hostname()).replace(/\./g, '%2E');
const CLAIM = /^\.(.+\.jsonl)\.([^.]+)\.(\d+)\.claim$/;
const claimName = (name: string): string => `.${name}.${HOST}.${process.pid}.claim`;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Write a match's rows to `<dir>/<match id>.jsonl` atomically (temporary file, fsync, rename). */
export async function writeSpool(dir: string, matchId: string, lines: readonly SpoolLine[]): Promise<SpooledMatch> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, fileName(matchId));
  // A dot name is never listed as pending, so a crash mid-write leaves no half match behind.
  const tmp = join(dir, `.${fileName(matchId)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const text = lines.map((l) => (typeof l.row === 'string' ? `{"table":${JSON.stringify(l.table)},"row":${l.row}}` : JSON.stringify(l))).join('\n') + '\n';
  try {
    const handle = await open(tmp, 'w');
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, file);
  } catch (e) {
    await rm(tmp, { force: true });
    throw new SalientError(
      'IO',
      `Could not spool match ${matchId} to ${file} (${reason(e)}); its telemetry is lost. ` + 'Check that SALIENT_SPOOL_DIR is writable and has space.',
    );
  }
  return { matchId, file, bytes: Buffer.byteLength(text), spooledAt: Date.now() };
}

/** Matches waiting in `dir`, oldest first. An absent directory is an empty spool. */
export async function pendingSpool(dir: string): Promise<SpooledMatch[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new SalientError('IO', `Cannot read the telemetry spool ${dir}: ${reason(e)}`);
  }
  const found: SpooledMatch[] = [];
  for (const name of names) {
    const claim = CLAIM.exec(name);
    if (claim && claim[2] === HOST && !alive(Number(claim[3]))) {
      // Claimed by a process of this host that died mid-delivery: waiting again.
      try {
        await rename(join(dir, name), join(dir, claim[1]!));
        names.push(claim[1]!);
      } catch {
        // Taken back by another process meanwhile.
      }
      continue;
    }
    if (!name.endsWith(SUFFIX) || name.startsWith('.')) continue;
    const file = join(dir, name);
    try {
      const s = await stat(file);
      found.push({ matchId: decodeURIComponent(name.slice(0, -SUFFIX.length)), file, bytes: s.size, spooledAt: s.mtimeMs });
    } catch {
      // Delivered and removed by another process meanwhile.
    }
  }
  return found.sort((a, b) => a.spooledAt - b.spooledAt || a.matchId.localeCompare(b.matchId));
}

/** The rows of a spool file, by table. */
export async function readSpool(file: string): Promise<Map<RowTable, ChRow[]>> {
  const text = await readFile(file, 'utf8');
  const byTable = new Map<RowTable, ChRow[]>();
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (e) {
      throw badSpool(file, i + 1, reason(e));
    }
    const { table, row } = (parsed ?? {}) as Partial<SpoolLine>;
    if (!ROW_TABLES.includes(table as RowTable) || typeof row !== 'object' || row === null || Array.isArray(row)) {
      throw badSpool(file, i + 1, 'expected {"table": <impulses|events|decisions|matches>, "row": {...}}');
    }
    const list = byTable.get(table as RowTable) ?? [];
    list.push(row);
    byTable.set(table as RowTable, list);
  });
  return byTable;
}

function badSpool(file: string, line: number, why: string): SalientError {
  return new SalientError('IO', `Spool file ${file} line ${line} is not a telemetry row (${why}). Move the file out of the spool directory and re-run that match.`);
}

/** Rows per delivery batch, about a sink's batch: several matches go in one insert per table. */
const DELIVERY_BATCH_ROWS = 20_000;

/** A claimed spool file and its rows. */
interface Claimed {
  match: SpooledMatch;
  claimed: string;
  rows: Map<RowTable, ChRow[]>;
}

/**
 * Insert every spooled match into `store`, deleting each file once it landed. Matches go in batches
 * of about {@link DELIVERY_BATCH_ROWS} rows, one insert per table with the match rows last, so a
 * `matches` row still means the rest of its match is in; a spool of a thousand matches is delivered
 * in a few dozen inserts rather than four thousand. Each file is claimed first, so of several
 * processes delivering one spool, one sends each match. Stops (giving back the batch's claims, the
 * rest pending, and the store's link down) when the server is unreachable; throws a `SalientError` for
 * any other failure. A damaged file is moved to `<spool>/rejected/` and reported in `rejected`.
 */
export async function deliverSpool(store: Store, dir: string, retry?: RetryPolicy): Promise<SpoolDelivery> {
  const delivered: string[] = [];
  const rejected: { file: string; why: string }[] = [];
  const pending = await pendingSpool(dir);
  let batch: Claimed[] = [];
  let rowsInBatch = 0;
  const giveBack = (c: Claimed) => rename(c.claimed, c.match.file).catch(() => {});
  /** Insert the batch; false when the server went away (claims given back). */
  const send = async (): Promise<boolean> => {
    const now = batch;
    batch = [];
    rowsInBatch = 0;
    if (now.length === 0) return true;
    try {
      for (const table of ROW_TABLES) await insertRows(store, table, now.flatMap((c) => c.rows.get(table) ?? []), retry);
      await countLanded(store, now.flatMap((c) => (c.rows.get('matches') ?? []).map(copyOf)), retry);
    } catch (e) {
      await Promise.all(now.map(giveBack));
      if (store.unreachable(e)) {
        store.link.down(e);
        return false;
      }
      throw e;
    }
    for (const c of now) {
      await rm(c.claimed, { force: true });
      delivered.push(c.match.matchId);
    }
    return true;
  };
  for (const m of pending) {
    const claimed = join(dir, claimName(basename(m.file)));
    try {
      await rename(m.file, claimed);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue; // another process has it
      await Promise.all(batch.map(giveBack));
      throw new SalientError('IO', `Cannot claim spool file ${m.file} for delivery (${reason(e)}). Check the permissions of SALIENT_SPOOL_DIR.`);
    }
    let rows: Map<RowTable, ChRow[]>;
    try {
      rows = await readSpool(claimed);
    } catch (e) {
      // A damaged file must not hold up every match behind it: set aside, said, and skipped.
      const aside = join(dir, 'rejected', basename(m.file));
      await mkdir(join(dir, 'rejected'), { recursive: true });
      await rename(claimed, aside).catch(() => {});
      const why = e instanceof SalientError ? badSpoolFile(e, claimed, m.file).message : reason(e);
      rejected.push({ file: aside, why });
      continue;
    }
    batch.push({ match: m, claimed, rows });
    for (const r of rows.values()) rowsInBatch += r.length;
    if (rowsInBatch >= DELIVERY_BATCH_ROWS && !(await send())) break;
  }
  await send();
  return { delivered, pending: await pendingSpool(dir), ...(rejected.length ? { rejected } : {}) };
}

/** The same complaint, naming the file under the name a user will find it by. */
function badSpoolFile(e: SalientError, claimed: string, file: string): SalientError {
  return new SalientError(e.code, e.message.replace(claimed, file));
}
