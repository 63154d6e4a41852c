/**
 * Read-only ad hoc SQL (`salient query`, `Telemetry.query`): one statement that reads the store and
 * nothing else.
 *
 * A keyword check alone cannot promise that (ClickHouse's lexer knows comments, heredocs and nesting
 * a scanner here can miss, and `SELECT ... INTO OUTFILE` or `SELECT * FROM url(...)` start with
 * SELECT), so ClickHouse enforces it in layers:
 *
 * 1. A scan here, for clear early messages: one statement, starting with SELECT, WITH, SHOW, DESCRIBE
 *    or EXPLAIN, with no INTO OUTFILE, no SETTINGS clause and no call of a function known to reach
 *    outside the store (file, url, s3, remote, mysql...).
 * 2. The engine's own parser, where it has one we can ask (`formatQuerySingleLine` and `EXPLAIN AST`,
 *    ClickHouse 23.10 and later, so the embedded engine): the statement must be one statement to
 *    ClickHouse too; its canonical text (no comments, keywords spelled out) must pass the scan again;
 *    its syntax tree must hold no SETTINGS (a subquery's SETTINGS readonly=0 lifts read-only mode on
 *    ClickHouse 26.7, checked) and no function reaching outside the store (table functions other than
 *    row generators, wherever they appear: `x IN file(...)` reads a file even in read-only mode, and
 *    the ordinary `file()` function). The canonical text is what runs, so what was checked is what
 *    runs.
 * 3. The engine's read-only mode (`readonly=1`, see `Store.readOnly`): no writes, no DDL, no settings
 *    changes, and table functions other than row generators refused. On ClickHouse 18.16, which has
 *    no parser to ask, this is what stops table functions (all of them, `numbers()` included) and
 *    SETTINGS clauses, and its HTTP interface refuses INTO OUTFILE itself.
 *
 * INTO OUTFILE needs layers 1 and 2: the embedded engine writes the file itself, in this process,
 * whatever the read-only mode says. System tables stay readable: they describe the store (tables,
 * parts and their paths, settings) and read no file outside it.
 */
import { text } from 'node:stream/consumers';
import type { ClickHouseClient } from '@clickhouse/client';
import { SalientError } from '@salient/engine';
import type { ReadOnlyAccess, Store } from './client.ts';
import { reason } from './failures.ts';
import { str } from './sql.ts';

/** An ad hoc query's result. */
export interface QueryResult {
  columns: { name: string; type: string }[];
  rows: Record<string, unknown>[];
}

const READ_ONLY = ['SELECT', 'WITH', 'SHOW', 'DESCRIBE', 'DESC', 'EXPLAIN'];

/** Table functions that make rows from their arguments alone (or wrap a subquery checked like the rest). */
const ROW_GENERATORS = ['numbers', 'numbers_mt', 'zeros', 'zeros_mt', 'generate_series', 'generateSeries', 'generateRandom', 'primes', 'values', 'null', 'view', 'format'];
const SAFE_TABLE_FUNCTIONS = new Set(ROW_GENERATORS.map((n) => n.toLowerCase()));

/**
 * Functions that reach outside the store wherever they appear (lower case). The engine's own list of
 * table functions is added at run time, so new ones are refused without a change here.
 */
const OUTSIDE_FUNCTIONS = new Set([
  'file', 'filecluster', 'filesystem', 'url', 'urlcluster', 's3', 's3cluster', 'gcs', 'oss', 'cosn', 'azureblobstorage', 'hdfs', 'hdfscluster',
  'remote', 'remotesecure', 'cluster', 'clusterallreplicas', 'mysql', 'postgresql', 'sqlite', 'mongodb', 'redis', 'jdbc', 'odbc',
  'executable', 'input', 'dictionary', 'catboostevaluate',
]);

const REFUSED = 'Query refused.';
const READS_ONLY = 'Ad hoc queries run read-only: they read the telemetry store and nothing else (no files, no network, no other servers, no settings changes).';

/**
 * Run one read-only statement (SELECT, WITH, SHOW, DESCRIBE, EXPLAIN) with Salient's database as the
 * default, under the layers described above. Anything else is refused with `BAD_QUERY` saying why,
 * before it runs; so is a query ClickHouse rejects.
 */
export function adHocQuery(store: Store, sql: string): Promise<QueryResult> {
  return adHocQueryUnscanned(store, readOnlyStatement(sql));
}

/** {@link adHocQuery} without the scan of layer 1: ClickHouse's layers alone (tests check them so). */
export async function adHocQueryUnscanned(store: Store, statement: string): Promise<QueryResult> {
  const access = await store.readOnly();
  const runs = await checkedByEngine(store, access, statement);
  let output: string;
  try {
    output = await run(access, runs, 'JSON');
  } catch (e) {
    throw engineError(store, 'running the query', e);
  }
  let result: { meta?: { name: string; type: string }[]; data?: Record<string, unknown>[] } | undefined;
  try {
    result = JSON.parse(output) as typeof result;
  } catch {
    result = undefined;
  }
  if (!result || !Array.isArray(result.data)) {
    throw new SalientError('BAD_QUERY', 'The query picked its own output format (a FORMAT clause), which this command cannot read: leave the FORMAT clause out (`--json` prints JSON).');
  }
  const columns = (result.meta ?? []).map((m) => ({ name: m.name, type: m.type }));
  // A server sends 64-bit integers as strings (JSON numbers lose precision); give numbers where exact.
  const wide = columns.filter((c) => /^(Nullable\()?U?Int64\)?$/.test(c.type)).map((c) => c.name);
  const rowsOut = result.data.map((row) => {
    if (wide.length === 0) return row;
    const out = { ...row };
    for (const name of wide) {
      const v = out[name];
      if (typeof v === 'string' && Number.isSafeInteger(Number(v))) out[name] = Number(v);
    }
    return out;
  });
  return { columns, rows: rowsOut };
}

/**
 * The statement in `sql` if it is a single read-only one, without a trailing semicolon; otherwise a
 * `BAD_QUERY` error saying why it was refused.
 */
export function readOnlyStatement(sql: string): string {
  const { code, statements, end } = scan(sql);
  if (statements > 1) {
    throw new SalientError('BAD_QUERY', `${REFUSED} Only one statement at a time: remove everything after the first \`;\`.`);
  }
  const first = /^[\s(]*([A-Za-z]+)/.exec(code)?.[1]?.toUpperCase();
  if (first === undefined) throw new SalientError('BAD_QUERY', 'The query is empty.');
  if (!READ_ONLY.includes(first)) {
    throw new SalientError('BAD_QUERY', `${REFUSED} Only read-only queries are allowed (${READ_ONLY.join(', ')}); this one starts with ${first}.`);
  }
  if (/\bINTO\s+OUTFILE\b/i.test(code)) {
    throw new SalientError('BAD_QUERY', `${REFUSED} INTO OUTFILE would write a file on this machine. ${READS_ONLY} Leave it out and redirect the output instead: salient query "..." --json > file`);
  }
  const outside = [...code.matchAll(/\b([A-Za-z_]\w*)\s*\(/g)].map((m) => m[1] as string).find((name) => OUTSIDE_FUNCTIONS.has(name.toLowerCase()));
  if (outside !== undefined) {
    throw new SalientError('BAD_QUERY', `${REFUSED} ${outside}() reads outside the store (files, the network, other servers or programs). ${READS_ONLY}`);
  }
  if (/\bSETTINGS\s+[A-Za-z_]\w*\s*=/i.test(code)) {
    throw new SalientError('BAD_QUERY', `${REFUSED} It has a SETTINGS clause, and settings can lift the read-only mode. ${READS_ONLY} Leave the SETTINGS clause out.`);
  }
  // Cut at the semicolon: the client appends a FORMAT clause, which must not land after it or in a comment.
  return sql.slice(0, end).trim();
}

/**
 * The text to run: `statement` as the engine's parser reads it, once that reading passed the checks,
 * or `statement` itself on an engine without a parser to ask (ClickHouse before 23.10), where
 * read-only mode is the guard.
 */
async function checkedByEngine(store: Store, access: ReadOnlyAccess, statement: string): Promise<string> {
  let canonical: string;
  try {
    const rs = await access.client.query({ query: `SELECT formatQuerySingleLine(${str(statement)}) AS q`, format: 'JSONEachRow', clickhouse_settings: access.settings });
    const [row] = await rs.json<{ q: string }>();
    canonical = String(row?.q ?? '');
  } catch (e) {
    if (/\bformatQuerySingleLine\b/.test(reason(e)) && /Unknown function/i.test(reason(e))) return statement;
    if (/Multi-statements are not allowed/i.test(reason(e))) {
      throw new SalientError('BAD_QUERY', `${REFUSED} ClickHouse reads it as more than one statement (${reason(e)}). Only one statement at a time.`);
    }
    throw engineError(store, 'reading the query', e);
  }
  readOnlyStatement(canonical);
  let tree: string[];
  try {
    const lines = (await run(access, `EXPLAIN AST ${canonical}`, 'JSONEachRow')).split('\n').filter((l) => l.trim() !== '');
    tree = lines.map((l) => String((JSON.parse(l) as { explain?: unknown }).explain ?? ''));
  } catch (e) {
    throw engineError(store, 'reading the query', e);
  }
  const why = refusalIn(tree, await tableFunctions(store, access.client));
  if (why !== undefined) throw new SalientError('BAD_QUERY', `${REFUSED} ${why} ${READS_ONLY}`);
  return canonical;
}

/**
 * The output of `sql` in `format`, run as it is: the client's `query()` would append a FORMAT clause,
 * which `EXPLAIN AST` takes as part of the statement it explains, so the format goes as a setting.
 */
async function run(access: ReadOnlyAccess, sql: string, format: 'JSON' | 'JSONEachRow'): Promise<string> {
  const r = await access.client.exec({ query: sql, clickhouse_settings: { ...access.settings, default_format: format } });
  return text(r.stream);
}

/**
 * Why the syntax tree `EXPLAIN AST` printed (a node a line, indented one space a level) must not run,
 * or undefined. `tableFunctionNames`: the engine's table functions, lower case.
 */
export function refusalIn(tree: readonly string[], tableFunctionNames: ReadonlySet<string>): string | undefined {
  const parents: { depth: number; node: string }[] = [];
  for (const line of tree) {
    const depth = line.length - line.trimStart().length;
    const node = line.trim();
    while (parents.length > 0 && (parents.at(-1) as { depth: number }).depth >= depth) parents.pop();
    const parent = parents.at(-1)?.node ?? '';
    parents.push({ depth, node });
    if (/^Set\b/.test(node)) return 'It has a SETTINGS clause, and settings can lift the read-only mode: leave it out.';
    const fn = /^Function (`(?:[^`\\]|\\.)*`|[^\s(]+)/.exec(node)?.[1];
    if (fn === undefined) continue;
    const name = fn.replace(/^`|`$/g, '');
    const lower = name.toLowerCase();
    if (SAFE_TABLE_FUNCTIONS.has(lower)) continue;
    if (parent.startsWith('TableExpression')) {
      return `Table function ${name}() may read outside the store; the ones allowed are ${ROW_GENERATORS.join(', ')}.`;
    }
    if (OUTSIDE_FUNCTIONS.has(lower) || tableFunctionNames.has(lower)) return `${name}() reads outside the store (files, the network, other servers or programs).`;
  }
  return undefined;
}

/** The engine's table functions (lower case), once per client. */
const tableFunctionCache = new WeakMap<ClickHouseClient, Promise<ReadonlySet<string>>>();

function tableFunctions(store: Store, client: ClickHouseClient): Promise<ReadonlySet<string>> {
  let names = tableFunctionCache.get(client);
  if (!names) {
    names = (async () => {
      try {
        const rs = await client.query({ query: 'SELECT name FROM system.table_functions', format: 'JSONEachRow' });
        return new Set((await rs.json<{ name: string }>()).map((r) => r.name.toLowerCase()));
      } catch (e) {
        tableFunctionCache.delete(client);
        throw store.fail('listing the table functions', e);
      }
    })();
    tableFunctionCache.set(client, names);
  }
  return names;
}

/** A failure from the engine: unreachable (as the store words it), refused by read-only mode, or rejected. */
function engineError(store: Store, what: string, e: unknown): SalientError {
  if (store.unreachable(e)) return store.fail(what, e);
  const code = (e as { code?: unknown }).code;
  // 164 READONLY: the engine's read-only mode said no (writes, settings, table functions); 358: a
  // server's HTTP interface does not write INTO OUTFILE.
  if (code === '164' || code === '358' || /in readonly mode|forbidden in readonly|INTO OUTFILE is not allowed/i.test(reason(e))) {
    return new SalientError('BAD_QUERY', `${REFUSED} ClickHouse (${store.where}) refused it in read-only mode: ${reason(e)}. ${READS_ONLY}`);
  }
  return new SalientError('BAD_QUERY', `ClickHouse (${store.where}) rejected the query: ${reason(e)}`);
}

/**
 * The text of `sql` outside comments (strings and quoted names blanked) and how many statements it
 * holds, so that keywords and semicolons inside literals or comments are not mistaken for code. It
 * reads comments as ClickHouse does (`--`, `#`, nested block comments) and knows heredoc strings (`$x$...$x$`).
 */
function scan(sql: string): { code: string; statements: number; end: number } {
  let code = '';
  let statements = 0;
  let pending = false;
  let end = -1;
  for (let i = 0; i < sql.length; i++) {
    const ch = sql[i] as string;
    const next = sql[i + 1];
    if ((ch === '-' && next === '-') || ch === '#') {
      const stop = sql.indexOf('\n', i);
      i = stop === -1 ? sql.length : stop;
      code += ' ';
    } else if (ch === '/' && next === '*') {
      let depth = 1;
      let j = i + 2;
      while (j < sql.length && depth > 0) {
        if (sql.startsWith('/*', j)) (depth++, (j += 2));
        else if (sql.startsWith('*/', j)) (depth--, (j += 2));
        else j++;
      }
      i = j - 1;
      code += ' ';
    } else if (ch === '$' && /^\$\w*\$/.test(sql.slice(i))) {
      const tag = (/^\$\w*\$/.exec(sql.slice(i)) as RegExpExecArray)[0];
      const stop = sql.indexOf(tag, i + tag.length);
      i = stop === -1 ? sql.length : stop + tag.length - 1;
      code += ' _ ';
      pending = true;
    } else if (ch === "'" || ch === '"' || ch === '`') {
      let j = i + 1;
      while (j < sql.length && sql[j] !== ch) j += sql[j] === '\\' ? 2 : 1;
      i = j;
      code += ' _ ';
      pending = true;
    } else if (ch === ';') {
      if (end === -1) end = i;
      if (pending) statements++;
      pending = false;
      code += ';';
    } else {
      if (!/\s/.test(ch)) pending = true;
      code += ch;
    }
  }
  if (pending) statements++;
  return { code, statements, end: end === -1 ? sql.length : end };
}
