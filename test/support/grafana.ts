/**
 * Enough of Grafana and its data sources to run a dashboard's queries outside Grafana: the dashboard
 * JSON walked for panels, targets and variables; template variables interpolated the way Grafana's
 * template service does (`$var`, `${var}`, `${var:format}`, "All"); the ClickHouse plugin's
 * `$__conditionalAll` (applied in the browser before the variables) and its server-side macros
 * (`$__timeFilter`, `$__timeInterval`, ...) expanded to the SQL the plugin sends; and the metric names
 * of a PromQL expression.
 *
 * Modelled on grafana-clickhouse-datasource 4.x (`pkg/macros/macros.go`, `applyConditionalAll` in
 * `src/data/CHDatasource.ts`) and Grafana's `TemplateSrv`. Anything this does not know throws, so a
 * dashboard that uses it fails its test instead of passing untested.
 */

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

// ---------------------------------------------------------------------------------------- dashboards

/** A data source reference as dashboards store it. */
export interface DataSourceRef {
  type?: string;
  uid?: string;
}

export interface Target {
  refId: string;
  datasource?: DataSourceRef;
  /** ClickHouse: the SQL; Prometheus: absent. */
  rawSql?: string;
  /** Prometheus: the PromQL. */
  expr?: string;
  raw: Obj;
}

export interface Panel {
  id: number;
  type: string;
  title: string;
  datasource?: DataSourceRef;
  targets: Target[];
  raw: Obj;
}

export interface Variable {
  name: string;
  type: string;
  datasource?: DataSourceRef;
  /** The query text (a string, or the `query`/`rawSql` field of an object query). */
  query?: string;
  multi: boolean;
  includeAll: boolean;
  raw: Obj;
}

export interface Dashboard {
  file: string;
  uid: string;
  title: string;
  raw: Obj;
  /** Every panel, those inside rows included; rows themselves are left out. */
  panels: Panel[];
  /** Row panels (they hold no queries). */
  rows: Obj[];
  variables: Variable[];
}

const ref = (v: unknown): DataSourceRef | undefined => {
  if (!isObj(v)) return undefined;
  const out: DataSourceRef = {};
  if (typeof v.type === 'string') out.type = v.type;
  if (typeof v.uid === 'string') out.uid = v.uid;
  return out;
};

/** The dashboard in `text` (from `file`), with its panels, targets and variables. Throws on a malformed one. */
export function parseDashboard(file: string, text: string): Dashboard {
  const raw: unknown = JSON.parse(text);
  if (!isObj(raw)) throw new Error(`${file}: not a JSON object`);
  const panels: Panel[] = [];
  const rows: Obj[] = [];
  const visit = (list: unknown, where: string): void => {
    if (!Array.isArray(list)) throw new Error(`${file}: ${where} is not a list`);
    for (const p of list) {
      if (!isObj(p)) throw new Error(`${file}: a panel in ${where} is not an object`);
      if (p.type === 'row') {
        rows.push(p);
        visit(p.panels ?? [], `row "${String(p.title)}"`);
        continue;
      }
      const targets = (Array.isArray(p.targets) ? p.targets : []).map((t, i): Target => {
        if (!isObj(t)) throw new Error(`${file}: panel "${String(p.title)}" target ${i} is not an object`);
        const target: Target = { refId: String(t.refId ?? ''), raw: t };
        const ds = ref(t.datasource);
        if (ds) target.datasource = ds;
        if (typeof t.rawSql === 'string') target.rawSql = t.rawSql;
        if (typeof t.expr === 'string') target.expr = t.expr;
        return target;
      });
      const panel: Panel = { id: Number(p.id), type: String(p.type), title: String(p.title ?? ''), targets, raw: p };
      const ds = ref(p.datasource);
      if (ds) panel.datasource = ds;
      panels.push(panel);
    }
  };
  visit(raw.panels ?? [], 'panels');
  const templating = isObj(raw.templating) ? raw.templating : {};
  const variables = (Array.isArray(templating.list) ? templating.list : []).map((v, i): Variable => {
    if (!isObj(v)) throw new Error(`${file}: variable ${i} is not an object`);
    const q = v.query;
    const query = typeof q === 'string' ? q : isObj(q) ? (typeof q.rawSql === 'string' ? q.rawSql : typeof q.query === 'string' ? q.query : undefined) : undefined;
    const variable: Variable = { name: String(v.name ?? ''), type: String(v.type ?? ''), multi: v.multi === true, includeAll: v.includeAll === true, raw: v };
    const ds = ref(v.datasource);
    if (ds) variable.datasource = ds;
    if (query !== undefined) variable.query = query;
    return variable;
  });
  return { file, uid: String(raw.uid ?? ''), title: String(raw.title ?? ''), raw, panels, rows, variables };
}

/** Every string anywhere in `v`, with its JSON path. */
export function stringsIn(v: unknown, path = '$'): [string, string][] {
  if (typeof v === 'string') return [[path, v]];
  if (Array.isArray(v)) return v.flatMap((x, i) => stringsIn(x, `${path}[${i}]`));
  if (isObj(v)) return Object.entries(v).flatMap(([k, x]) => stringsIn(x, `${path}.${k}`));
  return [];
}

// ----------------------------------------------------------------------------------------- variables

/** Grafana's `TemplateSrv` pattern: `$name`, `[[name]]` / `[[name:fmt]]`, `${name}` / `${name.path}` / `${name:fmt}`. */
const VARIABLE = /\$(\w+)|\[\[(\w+?)(?::(\w+))?\]\]|\$\{(\w+)(?:\.([^:^}]+))?(?::([^}]+))?\}/g;

/** A reference to a variable in a query. */
export interface VariableUse {
  name: string;
  format?: string;
  /** Deprecated `[[name]]` syntax. */
  brackets: boolean;
}

/** Every `$name`-style reference in `text`, built-ins (`$__...`) included. */
export function variableUses(text: string): VariableUse[] {
  return [...text.matchAll(VARIABLE)].map((m) => {
    const use: VariableUse = { name: m[1] ?? m[2] ?? m[4] ?? '', brackets: m[2] !== undefined };
    const format = m[3] ?? m[6];
    if (format !== undefined) use.format = format;
    return use;
  });
}

/** The value a dashboard variable has for one run: some of its options, or "All". */
export type VariableValue = { all: true } | { all: false; values: readonly string[] };
export const ALL: VariableValue = { all: true };
export const pick = (...values: string[]): VariableValue => ({ all: false, values });

/** One variable as a run sees it: its value and (for "All" without a custom all value) its options. */
export interface VariableState {
  value: VariableValue;
  /** What the variable's query returned, which "All" stands for. */
  options: readonly string[];
  multi: boolean;
}

const quoteSql = (s: string): string => `'${s.replace(/'/g, "''")}'`;

/** Grafana's formats that these dashboards may use; anything else is refused. */
const FORMATS: Record<string, (values: readonly string[], multi: boolean) => string> = {
  // Grafana: each value quoted for SQL ('' inside), joined by commas.
  sqlstring: (v) => v.map(quoteSql).join(','),
  singlequote: (v) => v.map((s) => `'${s.replace(/'/g, "\\'")}'`).join(','),
  doublequote: (v) => v.map((s) => `"${s.replace(/"/g, '\\"')}"`).join(','),
  csv: (v) => v.join(','),
  raw: (v) => v.join(','),
  // No format given: the ClickHouse plugin's own formatter quotes a multi-value variable, leaves a single one raw.
  '': (v, multi) => (multi ? `'${v.join("','")}'` : v.join(',')),
};

/** The values a variable stands for in this run. */
function valuesOf(name: string, state: VariableState): readonly string[] {
  if (!state.value.all) return state.value.values;
  if (state.options.length === 0) throw new Error(`variable ${name} is "All" but its query returned no options to stand for`);
  return state.options;
}

/**
 * The ClickHouse plugin's `$__conditionalAll(condition, $var)`: `1=1` when `$var` is "All", else the
 * condition. Arguments split on top-level commas the way the plugin does (parentheses counted).
 */
export function applyConditionalAll(sql: string, variables: Readonly<Record<string, VariableState>>): string {
  const macro = '$__conditionalAll(';
  let out = sql;
  for (let at = out.lastIndexOf(macro); at !== -1; at = out.lastIndexOf(macro)) {
    const args = macroArgs(out, at + macro.length - 1);
    if (args === undefined || args.args.length !== 2) throw new Error(`$__conditionalAll needs two arguments: ${out.slice(at, at + 80)}`);
    const [condition = '', variable = ''] = args.args;
    const name = /^\s*\$\{?(\w+)\}?\s*$/.exec(variable)?.[1];
    if (name === undefined) throw new Error(`$__conditionalAll's second argument must be a variable: ${variable}`);
    const state = variables[name];
    if (state === undefined) throw new Error(`$__conditionalAll names variable ${name}, which has no value in this run`);
    out = out.slice(0, at) + (state.value.all ? '1=1' : condition) + out.slice(args.end + 1);
  }
  return out;
}

/** Arguments of the call whose `(` is at `open`, split on commas outside nested parentheses; `end` is its `)`. */
function macroArgs(text: string, open: number): { args: string[]; end: number } | undefined {
  let depth = 0;
  let start = open + 1;
  const args: string[] = [];
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (ch === '(') depth++;
    else if (ch === ')') {
      depth--;
      if (depth === 0) {
        args.push(text.slice(start, i));
        return { args, end: i };
      }
    } else if (ch === ',' && depth === 1) {
      args.push(text.slice(start, i));
      start = i + 1;
    }
  }
  return undefined;
}

/** Grafana's interpolation of dashboard variables; built-ins (`$__...`) and unknown names are left as they are. */
export function interpolate(text: string, variables: Readonly<Record<string, VariableState>>): string {
  return text.replace(VARIABLE, (whole: string, plain?: string, bracket?: string, bracketFormat?: string, braced?: string, fieldPath?: string, bracedFormat?: string) => {
    const name = plain ?? bracket ?? braced ?? '';
    const state = variables[name];
    if (state === undefined) return whole;
    if (fieldPath !== undefined) throw new Error(`\${${name}.${fieldPath}}: field paths are not supported here`);
    const format = bracketFormat ?? bracedFormat ?? '';
    const formatter = FORMATS[format];
    if (formatter === undefined) throw new Error(`variable ${name}: format "${format}" is not one this check knows (${Object.keys(FORMATS).filter(Boolean).join(', ')})`);
    return formatter(valuesOf(name, state), state.multi);
  });
}

// ------------------------------------------------------------------------------- ClickHouse macros

/** What the plugin's server side knows of the query: the panel's time range and interval. */
export interface QueryContext {
  from: Date;
  to: Date;
  /** `$__timeInterval` bucket, in seconds (Grafana's interval for the panel; at least 1). */
  intervalSeconds: number;
}

const unix = (d: Date): number => Math.floor(d.getTime() / 1000);
const dateTime = (d: Date): string => `toDateTime(${unix(d)})`;
const dateTime64 = (d: Date): string => `fromUnixTimestamp64Milli(${d.getTime()})`;
const date = (d: Date): string => `toDate('${d.toISOString().slice(0, 10)}')`;

interface Macro {
  args: number;
  expand: (args: string[], context: QueryContext) => string;
}

const DATE_TIME_FILTER: Macro = {
  args: 2,
  expand: ([d, t], c) => `(${d} >= ${date(c.from)} AND ${d} <= ${date(c.to)}) AND (${t} >= ${dateTime(c.from)} AND ${t} <= ${dateTime(c.to)})`,
};

/** pkg/macros/macros.go of grafana-clickhouse-datasource 4.x, one entry per macro. */
const CLICKHOUSE_MACROS: Record<string, Macro> = {
  fromTime: { args: 0, expand: (_a, c) => dateTime(c.from) },
  toTime: { args: 0, expand: (_a, c) => dateTime(c.to) },
  fromTime_ms: { args: 0, expand: (_a, c) => dateTime64(c.from) },
  toTime_ms: { args: 0, expand: (_a, c) => dateTime64(c.to) },
  timeFilter: { args: 1, expand: ([col], c) => `${col} >= ${dateTime(c.from)} AND ${col} <= ${dateTime(c.to)}` },
  timeFilter_ms: { args: 1, expand: ([col], c) => `${col} >= ${dateTime64(c.from)} AND ${col} <= ${dateTime64(c.to)}` },
  dateFilter: { args: 1, expand: ([col], c) => `${col} >= ${date(c.from)} AND ${col} <= ${date(c.to)}` },
  dateTimeFilter: DATE_TIME_FILTER,
  dt: DATE_TIME_FILTER,
  timeInterval: { args: 1, expand: ([col], c) => `toStartOfInterval(toDateTime(${col}), INTERVAL ${Math.max(1, Math.floor(c.intervalSeconds))} second)` },
  timeInterval_ms: { args: 1, expand: ([col], c) => `toStartOfInterval(toDateTime64(${col}, 3), INTERVAL ${Math.max(1, Math.floor(c.intervalSeconds * 1000))} millisecond)` },
  interval_s: { args: 0, expand: (_a, c) => String(Math.max(1, Math.floor(c.intervalSeconds))) },
};

/** Names the ClickHouse data source expands (its `$__conditionalAll` included). */
export const CLICKHOUSE_MACRO_NAMES: readonly string[] = ['conditionalAll', ...Object.keys(CLICKHOUSE_MACROS)];

/** Grafana's global variables of the time range, as Grafana interpolates them before the data source sees the query. */
const GRAFANA_TIME_GLOBALS: Record<string, (c: QueryContext) => string> = {
  __interval: (c) => `${Math.max(1, Math.floor(c.intervalSeconds))}s`,
  __interval_ms: (c) => String(Math.max(1, Math.floor(c.intervalSeconds * 1000))),
  __from: (c) => String(c.from.getTime()),
  __to: (c) => String(c.to.getTime()),
  __range: (c) => `${Math.round((c.to.getTime() - c.from.getTime()) / 1000)}s`,
  __range_s: (c) => String(Math.round((c.to.getTime() - c.from.getTime()) / 1000)),
  __range_ms: (c) => String(c.to.getTime() - c.from.getTime()),
};

/** Grafana's global variables a ClickHouse query may use here (those of the time range). */
export const GRAFANA_TIME_BUILTINS: readonly string[] = Object.keys(GRAFANA_TIME_GLOBALS);

/** Grafana's global variables, which a Prometheus query may use. */
export const GRAFANA_BUILTINS: readonly string[] = [...GRAFANA_TIME_BUILTINS, '__rate_interval', '__timezone', '__dashboard', '__org', '__user'];

/** The server-side macros expanded, left to right; an unknown `$__name` throws. */
export function expandClickHouseMacros(sql: string, context: QueryContext): string {
  const re = /\$__(\w+)/g;
  let out = '';
  let done = 0;
  for (let m = re.exec(sql); m !== null; m = re.exec(sql)) {
    const name = m[1] ?? '';
    const macro = CLICKHOUSE_MACROS[name];
    if (macro === undefined) throw new Error(`unknown ClickHouse macro ${m[0]} (known: ${CLICKHOUSE_MACRO_NAMES.join(', ')})`);
    let end = m.index + m[0].length;
    let args: string[] = [];
    if (macro.args > 0) {
      const parsed = sql[end] === '(' ? macroArgs(sql, end) : undefined;
      if (parsed === undefined) throw new Error(`macro ${m[0]} needs ${macro.args} argument(s) in parentheses`);
      args = parsed.args.map((a) => a.trim());
      if (args.length !== macro.args) throw new Error(`macro ${m[0]} takes ${macro.args} argument(s), got ${args.length}: (${parsed.args.join(',')})`);
      end = parsed.end + 1;
    }
    out += sql.slice(done, m.index) + macro.expand(args, context);
    done = end;
    re.lastIndex = end;
  }
  return out + sql.slice(done);
}

/**
 * A ClickHouse panel's SQL as the plugin would run it: `$__conditionalAll` first (in the browser, on
 * the variables' raw state), then the variables, then the server-side macros. Throws if a `$` is left.
 */
export function expandClickHouseQuery(sql: string, variables: Readonly<Record<string, VariableState>>, context: QueryContext): string {
  const globals = interpolate(applyConditionalAll(sql, variables), variables).replace(/\$(__\w+)\b|\$\{(__\w+)\}/g, (whole: string, a?: string, b?: string) => {
    const global = GRAFANA_TIME_GLOBALS[a ?? b ?? ''];
    return global === undefined ? whole : global(context);
  });
  const out = expandClickHouseMacros(globals, context);
  const left = /\$\{?\w+/.exec(withoutStrings(out));
  if (left) throw new Error(`${left[0]} is left in the expanded query: an undefined variable or an unknown macro`);
  return out;
}

/** `sql` with the contents of its string literals blanked, so a `$` inside a string is not taken for code. */
function withoutStrings(sql: string): string {
  return sql.replace(/'(?:[^'\\]|\\.|'')*'/g, "''");
}

// ------------------------------------------------------------------------------------------- PromQL

const PROMQL_KEYWORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'and', 'or', 'unless', 'offset', 'atan2', 'inf', 'nan']);

/**
 * The metric names a PromQL expression selects: identifiers that are not functions, keywords, label
 * names (inside `{...}` or after `by`/`without`/`on`/`ignoring`/`group_*`), durations or numbers.
 * Grafana variables are treated as label values only, never as metric names.
 */
export function promqlMetricNames(expr: string): string[] {
  const code = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\$\{?\w+(?::\w+)?\}?/g, ' ');
  const names = new Set<string>();
  for (const m of code.matchAll(/[A-Za-z_:][\w:]*/g)) {
    const name = m[0];
    const after = code.slice((m.index ?? 0) + name.length);
    if (/^\s*\(/.test(after)) continue; // a function call
    const before = code.slice(0, m.index ?? 0);
    if (/\d$/.test(before)) continue; // the unit of a number or duration (5m, 1e3)
    if (PROMQL_KEYWORDS.has(name.toLowerCase())) continue;
    names.add(name);
  }
  return [...names];
}

/** The metric names a Prometheus variable query reads (`label_values(metric, label)`, `query_result(expr)`). */
export function promVariableMetricNames(query: string): string[] {
  const labelValues = /^\s*label_values\(\s*(.+?)\s*,\s*\w+\s*\)\s*$/.exec(query);
  if (labelValues) return promqlMetricNames(labelValues[1] ?? '');
  if (/^\s*label_values\(\s*\w+\s*\)\s*$/.test(query)) return [];
  const queryResult = /^\s*query_result\((.*)\)\s*$/.exec(query);
  if (queryResult) return promqlMetricNames(queryResult[1] ?? '');
  throw new Error(`Prometheus variable query not understood by this check: ${query}`);
}
