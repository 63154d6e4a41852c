/**
 * The Grafana dashboards in dashboards/, checked against what Grafana is given and what the code writes.
 *
 * There is no Grafana here, so the checks stand in for it: every dashboard parses and names only the
 * data sources infra/grafana provisions; every variable a query uses is defined; every ClickHouse query
 * is expanded the way the plugin expands it (`$__conditionalAll`, the variables, then `$__timeFilter`
 * and friends; see test/support/grafana.ts) and run on a real embedded ClickHouse opened with the real
 * migrations and filled with real Blitz! matches, with every variable at "All", at one value and at
 * several, and the numbers compared with what `@salient/telemetry` reads from the same store; and every
 * Prometheus metric a panel reads is one that something in this repository exports.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { createBot } from '@salient/bots';
import { blitz } from '@salient/game-blitz';
import { entrantIdentity, runMatch, type MatchResult, type TelemetrySink } from '@salient/runner';
import { openTelemetry, type QueryResult, type Telemetry } from '@salient/telemetry';
import { parseTournamentSpec, planTournament, playPlanned, replayStopRule, tournamentRecord, type MatchOutcome, type TournamentPlan } from '@salient/scheduler';
import {
  ALL,
  CLICKHOUSE_MACRO_NAMES,
  GRAFANA_BUILTINS,
  GRAFANA_TIME_BUILTINS,
  applyConditionalAll,
  expandClickHouseMacros,
  expandClickHouseQuery,
  interpolate,
  parseDashboard,
  pick,
  promVariableMetricNames,
  promqlMetricNames,
  stringsIn,
  variableUses,
  type Dashboard,
  type Panel,
  type QueryContext,
  type VariableState,
  type VariableValue,
} from './support/grafana.ts';
import { startRedisServer } from './support/redis-server.ts';
import { freePorts } from '../packages/telemetry/test/support/clickhouse-server.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const read = (p: string): string => readFileSync(join(root, p), 'utf8');
const rel = (p: string): string => relative(root, p).split('\\').join('/');

const dashboardFiles = readdirSync(join(root, 'dashboards'))
  .filter((f) => f.endsWith('.json'))
  .sort();
const dashboards: Dashboard[] = dashboardFiles.map((f) => parseDashboard(`dashboards/${f}`, read(`dashboards/${f}`)));
const dashboard = (file: string): Dashboard => {
  const d = dashboards.find((x) => x.file === `dashboards/${file}`);
  if (!d) throw new Error(`dashboards/${file} is missing`);
  return d;
};

/** The data sources infra/grafana provisions (uid -> type). */
const provisioned: Map<string, string> = (() => {
  const doc = parseYaml(read('infra/grafana/provisioning/datasources/salient.yaml')) as { datasources?: { uid?: string; type?: string }[] };
  return new Map((doc.datasources ?? []).map((d) => [String(d.uid), String(d.type)]));
})();
const CLICKHOUSE = 'salient-clickhouse';
const PROMETHEUS = 'salient-prometheus';

/** What each dashboard reads: one data source each. */
const SOURCE_OF: Record<string, string> = { 'salient-balance.json': CLICKHOUSE, 'salient-operations.json': PROMETHEUS };

/** The ClickHouse plugin version Grafana installs (compose pins it; test/infra.test.ts keeps k8s equal). */
const PLUGIN_VERSION = /grafana-clickhouse-datasource@(\d+\.\d+\.\d+)/.exec(read('infra/compose.yaml'))?.[1];

// ------------------------------------------------------------------------------------------- static

describe('dashboards/*.json', () => {
  it('holds the balance and the operations dashboards', () => {
    expect(dashboardFiles).toEqual(expect.arrayContaining(Object.keys(SOURCE_OF)));
    expect(provisioned.get(CLICKHOUSE)).toBe('grafana-clickhouse-datasource');
    expect(provisioned.get(PROMETHEUS)).toBe('prometheus');
  });

  it.each(dashboardFiles)('%s: a dashboard Grafana provisions: stable uid, title, schema version, panels laid out on the grid', (f) => {
    const d = dashboard(f);
    expect(d.uid).toMatch(/^[a-z0-9][a-z0-9-]{0,39}$/);
    expect(d.title.trim()).not.toBe('');
    expect(Number(d.raw.schemaVersion)).toBeGreaterThanOrEqual(39);
    // Provisioned dashboards carry no database id: Grafana assigns one and matches them by uid.
    expect(d.raw.id ?? null).toBeNull();
    expect(d.panels.length).toBeGreaterThan(0);
    const all = [...d.panels.map((p) => p.raw), ...d.rows];
    const ids = all.map((p) => p.id);
    for (const id of ids) expect(Number.isInteger(id), `panel id ${String(id)}`).toBe(true);
    expect(new Set(ids).size, 'panel ids are unique').toBe(ids.length);
    const boxes = all.map((p) => {
      const g = p.gridPos as Record<string, unknown> | undefined;
      const box = { title: String(p.title), x: Number(g?.x), y: Number(g?.y), w: Number(g?.w), h: Number(g?.h) };
      for (const k of ['x', 'y', 'w', 'h'] as const) expect(Number.isInteger(box[k]), `${box.title} gridPos.${k}`).toBe(true);
      expect(box.x + box.w, `${box.title} fits the 24 columns`).toBeLessThanOrEqual(24);
      return box;
    });
    for (const [i, a] of boxes.entries()) {
      for (const b of boxes.slice(i + 1)) {
        const overlap = a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
        expect(overlap, `"${a.title}" and "${b.title}" overlap`).toBe(false);
      }
    }
    for (const p of d.panels) {
      expect(p.title.trim(), `panel ${p.id} has a title`).not.toBe('');
      expect(p.targets.length, `${p.title} has a query`).toBeGreaterThan(0);
      const refIds = p.targets.map((t) => t.refId);
      expect(new Set(refIds).size, `${p.title}: refIds are unique`).toBe(refIds.length);
    }
  });

  it.each(dashboardFiles)('%s: no external links', (f) => {
    const d = dashboard(f);
    expect(d.raw.links ?? []).toEqual([]);
    for (const p of d.panels) expect(p.raw.links ?? [], p.title).toEqual([]);
    expect(stringsIn(d.raw).filter(([, s]) => /\b(?:https?|ftp):\/\//i.test(s))).toEqual([]);
  });

  it('uids and titles are unique across dashboards', () => {
    expect(new Set(dashboards.map((d) => d.uid)).size).toBe(dashboards.length);
    expect(new Set(dashboards.map((d) => d.title)).size).toBe(dashboards.length);
  });

  it.each(dashboardFiles)('%s: every panel, query and variable names a provisioned data source, with its type', (f) => {
    const d = dashboard(f);
    const refs = [
      ...d.panels.flatMap((p) => [[`panel "${p.title}"`, p.datasource] as const, ...p.targets.map((t) => [`panel "${p.title}" ${t.refId}`, t.datasource ?? p.datasource] as const)]),
      ...d.variables.filter((v) => v.type === 'query').map((v) => [`variable ${v.name}`, v.datasource] as const),
    ];
    expect(refs.length).toBeGreaterThan(0);
    for (const [where, ds] of refs) {
      expect(ds?.uid, `${where}: datasource uid`).toBeDefined();
      expect(provisioned.has(String(ds?.uid)), `${where}: ${String(ds?.uid)} is not provisioned (${[...provisioned.keys()].join(', ')})`).toBe(true);
      expect(ds?.type, `${where}: datasource type`).toBe(provisioned.get(String(ds?.uid)));
      expect(ds?.uid, `${where}: this dashboard reads ${SOURCE_OF[f]}`).toBe(SOURCE_OF[f]);
    }
  });

  it.each(dashboardFiles)('%s: every variable a query uses is defined (before it is used), every macro is known, and every variable is used', (f) => {
    const d = dashboard(f);
    const names = d.variables.map((v) => v.name);
    expect(new Set(names).size, 'variables are defined once').toBe(names.length);
    const known = new Set(SOURCE_OF[f] === CLICKHOUSE ? [...GRAFANA_TIME_BUILTINS, ...CLICKHOUSE_MACRO_NAMES.map((m) => `__${m}`)] : GRAFANA_BUILTINS);
    const queries: [string, string, number][] = [
      ...d.panels.flatMap((p) => p.targets.map((t): [string, string, number] => [`panel "${p.title}" ${t.refId}`, t.rawSql ?? t.expr ?? '', names.length])),
      ...d.variables.map((v, i): [string, string, number] => [`variable ${v.name}`, v.query ?? '', i]),
    ];
    const used = new Set<string>();
    for (const [where, text, definedBefore] of queries) {
      expect(text.trim(), `${where} has a query`).not.toBe('');
      for (const use of variableUses(text)) {
        expect(use.brackets, `${where}: [[${use.name}]] is deprecated; write \${${use.name}}`).toBe(false);
        if (use.name.startsWith('__')) {
          expect(known.has(use.name), `${where}: $${use.name} is neither a Grafana built-in nor a macro of this data source`).toBe(true);
          continue;
        }
        const at = names.indexOf(use.name);
        expect(at, `${where}: $${use.name} is not defined`).toBeGreaterThanOrEqual(0);
        expect(at, `${where}: $${use.name} must be defined before the variable that uses it`).toBeLessThan(definedBefore);
        used.add(use.name);
      }
    }
    expect(names.filter((n) => !used.has(n)), 'variables no query uses').toEqual([]);
    for (const v of d.variables) {
      expect(v.type, `${v.name}`).toBe('query');
      expect(v.includeAll, `${v.name} offers All`).toBe(true);
    }
  });

  it('ClickHouse queries are SQL-editor queries in the shape the installed plugin reads', () => {
    expect(PLUGIN_VERSION).toBeDefined();
    const targets = dashboards.flatMap((d) => d.panels.flatMap((p) => p.targets.filter((t) => (t.datasource ?? p.datasource)?.uid === CLICKHOUSE).map((t) => ({ p, t }))));
    expect(targets.length).toBeGreaterThan(0);
    for (const { p, t } of targets) {
      const where = `"${p.title}" ${t.refId}`;
      expect(t.raw.editorType, where).toBe('sql');
      // Without pluginVersion >= 4 the plugin takes the query for a v3 one and rewrites it.
      expect(t.raw.pluginVersion, where).toBe(PLUGIN_VERSION);
      expect(t.rawSql?.trim(), where).toBeTruthy();
      // sqlds formats: 0 time series (long frames turned wide), 1 table.
      const timeSeries = p.type === 'timeseries';
      expect(t.raw.format, where).toBe(timeSeries ? 0 : 1);
      expect(t.raw.queryType, where).toBe(timeSeries ? 'timeSeries' : 'table');
    }
  });

  it('Prometheus queries are PromQL with a legend', () => {
    const targets = dashboards.flatMap((d) => d.panels.flatMap((p) => p.targets.filter((t) => (t.datasource ?? p.datasource)?.uid === PROMETHEUS).map((t) => ({ p, t }))));
    expect(targets.length).toBeGreaterThan(0);
    for (const { p, t } of targets) {
      expect(t.expr?.trim(), `"${p.title}" ${t.refId}`).toBeTruthy();
      expect(typeof t.raw.legendFormat, `"${p.title}" ${t.refId} legendFormat`).toBe('string');
    }
  });
});

// ----------------------------------------------------------------------------------------- expander

describe('the query expander (test/support/grafana.ts)', () => {
  const vars = (value: VariableValue, options: string[] = ['A', 'B']): Record<string, VariableState> => ({ scenario: { value, options, multi: true } });
  const context: QueryContext = { from: new Date('2026-01-02T03:04:05Z'), to: new Date('2026-01-03T00:00:00Z'), intervalSeconds: 60 };

  it('$__conditionalAll is 1=1 for All and the condition otherwise, nested parentheses and all', () => {
    const sql = 'WHERE $__conditionalAll(hasAny(splitByChar(\'+\', b), [${scenario:sqlstring}]), $scenario) AND x';
    expect(applyConditionalAll(sql, vars(ALL))).toBe('WHERE 1=1 AND x');
    expect(applyConditionalAll(sql, vars(pick('A')))).toBe("WHERE hasAny(splitByChar('+', b), [${scenario:sqlstring}]) AND x");
    expect(() => applyConditionalAll('$__conditionalAll(a = 1)', vars(ALL))).toThrow(/two arguments/);
  });

  it('variables take Grafana’s formats; All stands for every option', () => {
    expect(interpolate('s IN (${scenario:sqlstring})', vars(pick("O'Brien", 'B')))).toBe("s IN ('O''Brien','B')");
    expect(interpolate('s IN (${scenario:sqlstring})', vars(ALL))).toBe("s IN ('A','B')");
    expect(interpolate('s = $scenario', { scenario: { value: pick('A'), options: ['A'], multi: false } })).toBe('s = A');
    expect(interpolate('$__timeFilter(t) $other', vars(ALL))).toBe('$__timeFilter(t) $other');
    expect(() => interpolate('${scenario:nope}', vars(ALL))).toThrow(/format "nope"/);
  });

  it('macros expand to the SQL the plugin sends', () => {
    expect(expandClickHouseMacros('WHERE $__timeFilter(ended_at)', context)).toBe('WHERE ended_at >= toDateTime(1767323045) AND ended_at <= toDateTime(1767398400)');
    expect(expandClickHouseMacros('$__timeInterval(ended_at) AS time, $__fromTime', context)).toBe('toStartOfInterval(toDateTime(ended_at), INTERVAL 60 second) AS time, toDateTime(1767323045)');
    expect(() => expandClickHouseMacros('$__timeFliter(t)', context)).toThrow(/unknown ClickHouse macro/);
    expect(() => expandClickHouseMacros('$__timeFilter(a, b)', context)).toThrow(/takes 1/);
    expect(() => expandClickHouseQuery('SELECT $undefined', vars(ALL), context)).toThrow(/left in the expanded query/);
    expect(expandClickHouseQuery("SELECT '$not_a_variable'", vars(ALL), context)).toBe("SELECT '$not_a_variable'");
    expect(expandClickHouseQuery('SELECT $__interval_ms, ${__from}', vars(ALL), context)).toBe('SELECT 60000, 1767323045000');
  });

  it('PromQL metric names leave out functions, labels, ranges, grouping and variables', () => {
    expect(
      promqlMetricNames('sum by (le, route) (rate(foo_bucket{job=~"$job", a="b c"}[$__rate_interval])) / on(instance) group_left(x) bar_total offset 5m > bool 0.5'),
    ).toEqual(['foo_bucket', 'bar_total']);
    expect(promqlMetricNames('histogram_quantile(0.95, sum(rate(x_seconds_bucket[5m])) by (le))')).toEqual(['x_seconds_bucket']);
    expect(promVariableMetricNames('label_values(up{job="a"}, instance)')).toEqual(['up']);
  });
});

// ---------------------------------------------------------------------------------- ClickHouse data

/** The matches played into the store: scenario, seed, Axis and Allies bots, and a decision cap. */
const GAMES: readonly { scenario: string; seed: number; axis: string; allies: string; cap?: number }[] = [
  { scenario: 'A', seed: 1, axis: 'random', allies: 'random' },
  { scenario: 'A', seed: 2, axis: 'greedy', allies: 'random' },
  { scenario: 'A', seed: 3, axis: 'random', allies: 'greedy' },
  // Stopped at the cap: adjudicated by Scenario A's rule.
  { scenario: 'A', seed: 4, axis: 'random', allies: 'random', cap: 30 },
  { scenario: 'B', seed: 1, axis: 'random', allies: 'random' },
  { scenario: 'B', seed: 2, axis: 'greedy', allies: 'random' },
  // The crash bot throws on its fifth decision: a forfeit for the Errors and forfeits panel.
  { scenario: 'B', seed: 3, axis: 'crash:after=5', allies: 'random' },
];

/**
 * An SPRT gauntlet recorded as a tournament (spec in the tournaments table): six side-swapped pairs of
 * Scenario A, greedy against random, for the SPRT panel; seeds where the pairs do not all score alike.
 */
const SPRT_SPEC = 'id: sprt-test\ngame: blitz\nscenarios: [A]\nentrants: [random, greedy]\nformat: gauntlet\nreference: random\ngamesPerPairing: 12\nbaseSeed: 1\nstop: { rule: sprt, elo0: 0, elo1: 50 }\n';

const INTERVAL_SECONDS = 60;
const LENGTH_KINDS = new Set(['completed', 'adjudicated']);
const Z95 = 1.959963984540054;

let dir = '';
let telemetry: Telemetry;
const played: MatchResult[] = [];
/** The entrant a seat of a played match is kept under (its bot, parameters and version). */
const entrantOf = (r: MatchResult, seat: string): string => entrantIdentity(r.replay.seats[seat], r.bots[seat] ?? '');
/** The first match of {@link GAMES} played a second time. */
let again: MatchResult | undefined;
let context: QueryContext;
let sprtPlan: TournamentPlan;
const sprtOutcomes: MatchOutcome[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'salient-dashboards-'));
  telemetry = await openTelemetry({ kind: 'embedded', path: join(dir, 'clickhouse'), spoolDir: join(dir, 'spool') });
  const checked = blitz.checkPack(blitz.bundledPacks.approximation);
  if (!checked.ok) throw new Error(`The bundled Blitz pack does not load: ${JSON.stringify(checked.issues)}`);
  // Merges held back, so the replayed match's rows stay twice in the tables and a panel reading
  // without FINAL would count it twice.
  for (const table of ['matches', 'impulses', 'events', 'decisions']) await telemetry.client.command({ query: `SYSTEM STOP MERGES ${telemetry.database}.${table}` });
  const started = Date.now();
  const play = (g: (typeof GAMES)[number], sink: TelemetrySink): Promise<MatchResult> =>
    runMatch({
      game: blitz,
      pack: checked.pack,
      scenario: g.scenario,
      seed: g.seed,
      seats: { Axis: createBot(g.axis), Allies: createBot(g.allies) },
      seatSpecs: { Axis: g.axis, Allies: g.allies },
      sink,
      tags: { tournament: 'dashboards-test' },
      ...(g.cap === undefined ? {} : { decisionCap: g.cap }),
    });
  const sink = telemetry.sink();
  for (const g of GAMES) played.push(await play(g, sink));
  sprtPlan = await planTournament(await parseTournamentSpec(SPRT_SPEC, 'sprt-test.yaml'));
  await telemetry.recordTournament(tournamentRecord(sprtPlan, 'local', 'finished', new Date(started)));
  for (const m of sprtPlan.matches) {
    const { outcome, result } = await playPlanned(m, { sink });
    sprtOutcomes.push(outcome);
    played.push(result);
  }
  // The first match again, through a sink of its own once the others are written: the same match id
  // and rows in a second part of each table (rows inserted together would be collapsed on insert).
  await telemetry.query('SELECT 1');
  again = await play(GAMES[0] ?? { scenario: 'A', seed: 1, axis: 'random', allies: 'random' }, telemetry.sink());
  // ended_at is stored in whole seconds; an hour each side covers the run and any clock rounding.
  context = { from: new Date(started - 3_600_000), to: new Date(Date.now() + 3_600_000), intervalSeconds: INTERVAL_SECONDS };
}, 120_000);

afterAll(async () => {
  await telemetry?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const balance = dashboard('salient-balance.json');
const panelNamed = (title: string): Panel => {
  const p = balance.panels.find((x) => x.title === title);
  if (!p) throw new Error(`salient-balance.json has no panel "${title}" (has: ${balance.panels.map((x) => x.title).join(', ')})`);
  return p;
};

/** The options of every variable (each variable's query run with the variables before it at All). */
async function variableOptions(): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  const states: Record<string, VariableState> = {};
  for (const v of balance.variables) {
    const result = await telemetry.query(expandClickHouseQuery(v.query ?? '', states, context));
    const column = result.columns[0]?.name ?? '';
    out[v.name] = result.rows.map((r) => String(r[column]));
    states[v.name] = { value: ALL, options: out[v.name] ?? [], multi: v.multi };
  }
  return out;
}

/** Every variable at All but those given. */
function statesWith(options: Record<string, string[]>, values: Record<string, VariableValue> = {}, range: QueryContext = context): { states: Record<string, VariableState>; range: QueryContext } {
  const states: Record<string, VariableState> = {};
  for (const v of balance.variables) states[v.name] = { value: values[v.name] ?? ALL, options: options[v.name] ?? [], multi: v.multi };
  return { states, range };
}

async function runPanel(p: Panel, run: { states: Record<string, VariableState>; range: QueryContext }): Promise<QueryResult> {
  const [target, ...more] = p.targets;
  expect(more, `${p.title}: one query per panel here`).toEqual([]);
  const sql = expandClickHouseQuery(target?.rawSql ?? '', run.states, run.range);
  try {
    return await telemetry.query(sql);
  } catch (e) {
    throw new Error(`panel "${p.title}" failed: ${(e as Error).message}\n--- expanded SQL ---\n${sql}`);
  }
}

type Row = Record<string, unknown>;
const num = (v: unknown): number => Number(v);
const count = <T>(items: readonly T[], key: (t: T) => string): Map<string, number> => {
  const m = new Map<string, number>();
  for (const t of items) m.set(key(t), (m.get(key(t)) ?? 0) + 1);
  return m;
};
const sortedRows = (rows: readonly Row[]): string[] => rows.map((r) => JSON.stringify(r)).sort();

/** The 95% Wilson interval, computed here independently of the dashboard's SQL. */
function wilson(wins: number, games: number): [number, number] {
  const p = wins / games;
  const z2 = Z95 * Z95;
  const centre = p + z2 / (2 * games);
  const spread = Z95 * Math.sqrt((p * (1 - p)) / games + z2 / (4 * games * games));
  return [Math.max(0, (centre - spread) / (1 + z2 / games)), Math.min(1, (centre + spread) / (1 + z2 / games))];
}

/** The error function (Abramowitz and Stegun 7.1.26 is too coarse for 9 digits: this is jstat's, which the stats package uses). */
const { erf } = (createRequire(import.meta.url)('jstat') as { jStat: { erf: (x: number) => number } }).jStat;

/** The legend of a series: scenario (and power), pack and rules version, as the panels write it. */
const packLabel = (r: MatchResult): string => ` · ${r.pack.id} ${r.pack.version} (${r.pack.hash.slice(0, 8)}) · rules ${r.rulesVersion}`;

describe('salient-balance.json on a store holding real Blitz! matches', () => {
  it('played what the panels are checked against: both scenarios, every way a match ends here, one match twice', async () => {
    expect(played.length).toBe(GAMES.length + sprtPlan.matches.length);
    expect(new Set(played.map((r) => r.matchId)).size).toBe(played.length);
    expect(again?.matchId).toBe(played[0]?.matchId);
    expect(again?.finalHash).toBe(played[0]?.finalHash);
    const stored = await telemetry.query(`SELECT count() AS n FROM matches WHERE match_id = '${again?.matchId ?? ''}'`);
    expect(num(stored.rows[0]?.n), 'the replayed match is in the table twice (merges are stopped)').toBe(2);
    expect(new Set(played.map((r) => r.kind))).toEqual(new Set(['completed', 'adjudicated', 'forfeit']));
  });

  it('every variable query runs and lists what was played', async () => {
    const options = await variableOptions();
    expect(options.game).toEqual([...new Set(played.map((r) => r.game))].sort());
    expect(options.scenario).toEqual(['A', 'B']);
    expect(options.pack).toEqual([...new Set(played.map((r) => r.pack.id))].sort());
    // Entrants, as results are kept: the bot with its parameters and version.
    expect(options.bot).toEqual([...new Set(played.flatMap((r) => Object.keys(r.bots).map((seat) => entrantOf(r, seat))))].sort());
    expect(options.bot).toEqual(expect.arrayContaining(['random@1', 'greedy@2', 'crash:after=5@1']));
    expect(options.tournament).toEqual(['dashboards-test', 'sprt-test']);
    // The variables after `game` list what that game has: all of it for the game played, nothing for another.
    for (const v of balance.variables.slice(1)) {
      const list = async (game: string): Promise<unknown[]> => (await telemetry.query(expandClickHouseQuery(v.query ?? '', statesWith(options, { game: pick(game) }).states, context))).rows;
      expect((await list('blitz')).length, v.name).toBe(options[v.name]?.length);
      expect(await list('no-such-game'), v.name).toEqual([]);
    }
  });

  it.each(balance.panels.map((p) => p.title))('"%s" runs with every variable at All, at one value and at every value, and All means every value', async (title) => {
    const p = panelNamed(title);
    const options = await variableOptions();
    const all = await runPanel(p, statesWith(options));
    expect(all.rows.length, `${title} returns rows with everything selected`).toBeGreaterThan(0);
    if (p.type === 'timeseries') {
      // sqlds turns a long frame wide on its time column, which must come first and ascend.
      expect(all.columns[0]?.name).toBe('time');
      expect(all.columns[0]?.type).toMatch(/^DateTime/);
      const times = all.rows.map((r) => String(r.time));
      expect(times).toEqual([...times].sort());
    }
    for (const v of balance.variables) {
      const values = options[v.name] ?? [];
      expect(values.length, `${v.name} has options`).toBeGreaterThan(0);
      // Every option picked one by one: each runs, and no row of one value appears without it in All.
      for (const value of values) await runPanel(p, statesWith(options, { [v.name]: pick(value) }));
      // Every option picked at once selects what All selects (All is 1=1 in SQL, not a list).
      const every = await runPanel(p, statesWith(options, { [v.name]: pick(...values) }));
      expect(sortedRows(every.rows), `${title}: ${v.name} = every option differs from All`).toEqual(sortedRows(all.rows));
      // A value nothing has: an empty panel, so the filter is applied wherever the panel reads.
      const none = await runPanel(p, statesWith(options, { [v.name]: pick("no-such-value'") }));
      expect(none.rows, `${title} ignores ${v.name} somewhere`).toEqual([]);
    }
  });

  it('a time range with no matches in it leaves every panel empty', async () => {
    const options = await variableOptions();
    const before = statesWith(options, {}, { from: new Date('2000-01-01T00:00:00Z'), to: new Date('2000-01-02T00:00:00Z'), intervalSeconds: INTERVAL_SECONDS });
    for (const p of balance.panels) expect((await runPanel(p, before)).rows, p.title).toEqual([]);
  });

  it('Matches recorded: every match played once, by how it ended, and by scenario when one is picked', async () => {
    const options = await variableOptions();
    const p = panelNamed('Matches recorded');
    const byKind = (rows: Row[]): Map<string, number> => {
      const m = new Map<string, number>();
      for (const r of rows) m.set(String(r.kind), (m.get(String(r.kind)) ?? 0) + num(r.n_matches));
      return m;
    };
    expect(byKind((await runPanel(p, statesWith(options))).rows)).toEqual(count(played, (r) => r.kind));
    for (const scenario of ['A', 'B']) {
      const rows = (await runPanel(p, statesWith(options, { scenario: pick(scenario) }))).rows;
      expect(rows.reduce((a, r) => a + num(r.n_matches), 0), `scenario ${scenario}`).toBe(played.filter((r) => r.scenario === scenario).length);
    }
    const greedy = (await runPanel(p, statesWith(options, { bot: pick('greedy@2') }))).rows;
    expect(greedy.reduce((a, r) => a + num(r.n_matches), 0)).toBe(played.filter((r) => Object.keys(r.bots).some((seat) => entrantOf(r, seat) === 'greedy@2')).length);
  });

  it('Win rate by scenario and side: the store’s win counts summed over bots, with the 95% Wilson interval', async () => {
    const options = await variableOptions();
    const rows = (await runPanel(panelNamed('Win rate by scenario and side'), statesWith(options))).rows;
    const expected = new Map<string, { games: number; wins: number; losses: number; draws: number }>();
    for (const w of await telemetry.winRates()) {
      const k = JSON.stringify([w.game, w.scenario, w.packId, w.packHash, w.rulesVersion, w.side]);
      const e = expected.get(k) ?? { games: 0, wins: 0, losses: 0, draws: 0 };
      expected.set(k, { games: e.games + w.games, wins: e.wins + w.wins, losses: e.losses + w.losses, draws: e.draws + w.draws });
    }
    const got = new Map(rows.map((r) => [JSON.stringify([r.game, r.scenario, r.pack, r.pack_hash, r.rules_version, r.side]), { games: num(r.games), wins: num(r.wins), losses: num(r.losses), draws: num(r.draws) }]));
    expect(got).toEqual(expected);
    // And straight from the results: every decided match counts once for each of its sides.
    const decided = played.filter((r) => 'result' in r);
    expect(rows.reduce((a, r) => a + num(r.games), 0)).toBe(decided.reduce((a, r) => a + ('result' in r ? Object.keys(r.result.sides).length : 0), 0));
    for (const r of rows) {
      const [low, high] = wilson(num(r.wins), num(r.games));
      expect(num(r.win_rate)).toBeCloseTo(num(r.wins) / num(r.games), 12);
      expect(num(r.win_rate_low), `${String(r.scenario)} ${String(r.side)} low`).toBeCloseTo(low, 9);
      expect(num(r.win_rate_high), `${String(r.scenario)} ${String(r.side)} high`).toBeCloseTo(high, 9);
      expect(num(r.win_rate_low)).toBeLessThanOrEqual(num(r.win_rate));
      expect(num(r.win_rate_high)).toBeGreaterThanOrEqual(num(r.win_rate));
    }
  });

  it('Bot results: the store’s win counts by bot and side, and only that bot’s sides when one is picked', async () => {
    const options = await variableOptions();
    const p = panelNamed('Bot results');
    const key = (r: Row): string => JSON.stringify([r.bot, r.side, r.game, r.scenario, r.pack, r.pack_hash, r.rules_version, num(r.games), num(r.wins), num(r.losses), num(r.draws)]);
    const expected = (await telemetry.winRates()).map((w) => JSON.stringify([w.bot, w.side, w.game, w.scenario, w.packId, w.packHash, w.rulesVersion, w.games, w.wins, w.losses, w.draws]));
    expect((await runPanel(p, statesWith(options))).rows.map(key).sort()).toEqual(expected.sort());
    const greedy = (await runPanel(p, statesWith(options, { bot: pick('greedy@2') }))).rows;
    expect(greedy.map((r) => r.bot)).toEqual(greedy.map(() => 'greedy@2'));
    expect(greedy.map(key).sort()).toEqual((await telemetry.winRates({ bot: 'greedy@2' })).map((w) => JSON.stringify([w.bot, w.side, w.game, w.scenario, w.packId, w.packHash, w.rulesVersion, w.games, w.wins, w.losses, w.draws])).sort());
    for (const r of greedy) {
      const [low, high] = wilson(num(r.wins), num(r.games));
      expect(num(r.win_rate_low)).toBeCloseTo(low, 9);
      expect(num(r.win_rate_high)).toBeCloseTo(high, 9);
    }
  });

  it('Game length: the same count, mean, median, 90th percentile and extremes as the store’s game lengths', async () => {
    const options = await variableOptions();
    const rows = (await runPanel(panelNamed('Game length'), statesWith(options))).rows;
    const expected = await telemetry.gameLengths();
    expect(rows.length).toBe(expected.length);
    for (const e of expected) {
      const r = rows.find((x) => x.scenario === e.scenario && x.pack_hash === e.packHash && x.rules_version === e.rulesVersion && x.metric === e.metric);
      expect(r, `${e.scenario} ${e.metric}`).toBeDefined();
      expect({ n: num(r?.n_matches), p50: num(r?.p50), p90: num(r?.p90), min: num(r?.shortest), max: num(r?.longest) }).toEqual({ n: e.matches, p50: e.p50, p90: e.p90, min: e.min, max: e.max });
      expect(num(r?.mean)).toBeCloseTo(e.mean, 9);
    }
    const lengthMatches = played.filter((r) => LENGTH_KINDS.has(r.kind));
    expect(rows.filter((r) => r.metric === 'turns').reduce((a, r) => a + num(r.n_matches), 0)).toBe(lengthMatches.length);
  });

  it.each([
    ['Turns per match', 'turns_played', (r: MatchResult) => r.position.turn],
    ['Impulses per match', 'impulses_played', (r: MatchResult) => r.impulses],
  ] as const)('%s: how many completed and adjudicated matches lasted each length, per scenario', async (title, column, length) => {
    const options = await variableOptions();
    const rows = (await runPanel(panelNamed(title), statesWith(options))).rows;
    const got = new Map(rows.map((r) => [`${String(r[column])}|${String(r.series)}`, num(r.n_matches)]));
    expect(got).toEqual(count(played.filter((r) => LENGTH_KINDS.has(r.kind)), (r) => `${length(r)}|${r.scenario}${packLabel(r)}`));
  });

  it('Mean score by turn and impulse: the store’s impulse curves, one series per scenario and power', async () => {
    const options = await variableOptions();
    const packs = new Map(played.map((r) => [r.pack.hash, r]));
    for (const scenario of [undefined, 'A', 'B']) {
      const rows = (await runPanel(panelNamed('Mean score by turn and impulse'), statesWith(options, scenario === undefined ? {} : { scenario: pick(scenario) }))).rows;
      const curves = await telemetry.impulseCurves(scenario === undefined ? {} : { scenario });
      expect(curves.length).toBeGreaterThan(0);
      const lo = Math.min(...curves.map((c) => c.impulse));
      const hi = Math.max(...curves.map((c) => c.impulse));
      const expected = new Map(
        curves.map((c) => {
          const r = packs.get(c.packHash);
          if (!r) throw new Error(`pack ${c.packHash} was not played`);
          const position = c.turn + (c.impulse - lo) / (hi - lo + 1);
          return [`${position.toFixed(9)}|${c.scenario} ${c.power}${packLabel(r)}`, c.meanScore];
        }),
      );
      const got = new Map(rows.map((r) => [`${num(r.position).toFixed(9)}|${String(r.series)}`, num(r.mean_score)]));
      expect([...got.keys()].sort(), `scenario ${scenario ?? 'All'}`).toEqual([...expected.keys()].sort());
      for (const [k, v] of expected) expect(got.get(k), k).toBeCloseTo(v, 9);
      const positions = rows.map((r) => num(r.position));
      expect(positions, 'ascending x, as the trend panel needs').toEqual([...positions].sort((a, b) => a - b));
    }
  });

  it('Losses by power: the loss counts of every impulse row of every match, in all and per match', async () => {
    const options = await variableOptions();
    const rows = (await runPanel(panelNamed('Losses by power'), statesWith(options))).rows;
    const expected = new Map<string, { matches: Set<string>; losses: number }>();
    for (const r of played) {
      for (const imp of await telemetry.impulses(r.matchId)) {
        for (const [power, losses] of Object.entries(imp.losses)) {
          const k = `${r.scenario}|${power}`;
          const e = expected.get(k) ?? { matches: new Set<string>(), losses: 0 };
          e.matches.add(r.matchId);
          e.losses += losses;
          expected.set(k, e);
        }
      }
    }
    expect(new Set(rows.map((r) => `${String(r.scenario)}|${String(r.power)}`))).toEqual(new Set(expected.keys()));
    for (const r of rows) {
      const e = expected.get(`${String(r.scenario)}|${String(r.power)}`);
      expect({ matches: num(r.n_matches), losses: num(r.total_losses) }).toEqual({ matches: e?.matches.size, losses: e?.losses });
      expect(num(r.losses_per_match)).toBeCloseTo(num(r.total_losses) / num(r.n_matches), 12);
    }
    expect(rows.reduce((a, r) => a + num(r.total_losses), 0)).toBeGreaterThan(0);
  });

  it('Errors and forfeits: the crash bot’s forfeit, with its cause and bot, and nothing for a bot that never forfeited', async () => {
    const options = await variableOptions();
    const p = panelNamed('Errors and forfeits');
    const forfeits = played.filter((r) => r.kind === 'forfeit');
    const rows = (await runPanel(p, statesWith(options))).rows;
    expect(rows.map((r) => ({ kind: r.kind, cause: r.cause, seat_bot: r.seat_bot, scenario: r.scenario, n: num(r.n_matches) }))).toEqual(
      forfeits.map((r) => ({ kind: 'forfeit', cause: r.kind === 'forfeit' ? r.reason : '', seat_bot: r.kind === 'forfeit' ? entrantOf(r, r.seat) : '', scenario: r.scenario, n: 1 })),
    );
    expect(rows[0]?.seat_bot).toBe('crash:after=5@1');
    expect((await runPanel(p, statesWith(options, { bot: pick('greedy@2') }))).rows).toEqual([]);
  });

  it('Ratings: head to head: each bot against each opponent, counted from the matches played, with the Elo their score implies', async () => {
    const options = await variableOptions();
    const p = panelNamed('Ratings: head to head');
    const expected = new Map<string, { games: number; wins: number; losses: number; draws: number }>();
    for (const r of played) {
      if (!('result' in r)) continue;
      const sides = Object.keys(r.result.sides);
      if (sides.length !== 2) continue;
      for (const [side, other] of [sides, [...sides].reverse()] as [string, string][]) {
        const k = JSON.stringify([entrantOf(r, side), entrantOf(r, other), r.game, r.pack.id, r.pack.hash, r.rulesVersion]);
        const e = expected.get(k) ?? { games: 0, wins: 0, losses: 0, draws: 0 };
        const o = r.result.sides[side];
        expected.set(k, { games: e.games + 1, wins: e.wins + (o === 'win' ? 1 : 0), losses: e.losses + (o === 'loss' ? 1 : 0), draws: e.draws + (o === 'draw' ? 1 : 0) });
      }
    }
    const rows = (await runPanel(p, statesWith(options))).rows;
    const got = new Map(rows.map((r) => [JSON.stringify([r.bot, r.opponent, r.game, r.pack, r.pack_hash, r.rules_version]), { games: num(r.games), wins: num(r.wins), losses: num(r.losses), draws: num(r.draws) }]));
    expect(got).toEqual(expected);
    const elo = (s: number): number | null => (s > 0 && s < 1 ? -400 * Math.log10(1 / s - 1) : null);
    for (const r of rows) {
      const score = (num(r.wins) + num(r.draws) / 2) / num(r.games);
      const [low, high] = wilson(num(r.wins) + num(r.draws) / 2, num(r.games));
      const where = `${String(r.bot)} v ${String(r.opponent)}`;
      expect(num(r.score), where).toBeCloseTo(score, 12);
      for (const [column, value] of [['elo', elo(score)], ['elo_low', elo(low)], ['elo_high', elo(high)]] as const) {
        if (value === null) expect(r[column], `${where} ${column}`).toBeNull();
        else expect(num(r[column]), `${where} ${column}`).toBeCloseTo(value, 6);
      }
      const decisive = num(r.wins) + num(r.losses);
      if (decisive === 0) expect(r.los).toBeNull();
      else expect(num(r.los), `${where} los`).toBeCloseTo(0.5 * (1 + erf((num(r.wins) - num(r.losses)) / Math.sqrt(2 * decisive))), 9);
    }
    // Picking a bot shows its own rows against each opponent, not its opponents' rows against it.
    const greedy = (await runPanel(p, statesWith(options, { bot: pick('greedy@2') }))).rows;
    expect(greedy.length).toBeGreaterThan(0);
    expect(new Set(greedy.map((r) => r.bot))).toEqual(new Set(['greedy@2']));
  });

  it('SPRT tournaments: the pairs and pentanomial the stop rule counts, the Wald bounds, and the approximate LLR', async () => {
    const options = await variableOptions();
    const p = panelNamed('SPRT tournaments');
    const rows = (await runPanel(p, statesWith(options))).rows;
    const { status } = replayStopRule(sprtPlan, sprtOutcomes);
    if (status?.rule !== 'sprt') throw new Error('the SPRT tournament has no SPRT status');
    expect(rows.map((r) => r.tournament)).toEqual(['sprt-test']);
    const r = rows[0] as Row;
    expect({ candidate: r.candidate, reference: r.reference, state: r.state, pairs: num(r.n_pairs) }).toEqual({ candidate: 'greedy', reference: 'random', state: 'finished', pairs: status.pairs });
    expect([r.ptnml_0, r.ptnml_05, r.ptnml_1, r.ptnml_15, r.ptnml_2].map(num)).toEqual([...status.pentanomial]);
    expect(new Set(status.pentanomial.filter((n) => n > 0)).size, 'the pairs do not all score alike').toBeGreaterThan(1);
    expect(num(r.llr_lower)).toBeCloseTo(status.lower, 9);
    expect(num(r.llr_upper)).toBeCloseTo(status.upper, 9);
    // The normal approximation, recomputed from the pentanomial, and on the same side of 0 as fishtest's exact LLR.
    const scores = status.pentanomial.flatMap((n, i) => Array.from({ length: n }, () => i / 4));
    const mean = scores.reduce((a, x) => a + x, 0) / scores.length;
    const sigma = Math.sqrt(scores.reduce((a, x) => a + (x - mean) ** 2, 0) / scores.length);
    const t = (mean - 0.5) / sigma;
    const [t0, t1] = [status.elo0, status.elo1].map((e) => (e / (800 / Math.LN10)) * Math.SQRT2) as [number, number];
    const approx = (scores.length / 2) * ((t - t0) ** 2 - (t - t1) ** 2);
    expect(num(r.llr_approx)).toBeCloseTo(approx, 9);
    expect(Math.sign(num(r.llr_approx))).toBe(Math.sign(status.llr));
    expect(r.verdict_approx).toBe(approx >= status.upper ? 'H1' : approx <= status.lower ? 'H0' : 'continue');
    // Another tournament picked: no SPRT to show.
    expect((await runPanel(p, statesWith(options, { tournament: pick('dashboards-test') }))).rows).toEqual([]);
  });

  it('Recent matches: every match played, newest first', async () => {
    const options = await variableOptions();
    const rows = (await runPanel(panelNamed('Recent matches'), statesWith(options))).rows;
    expect(rows.map((r) => r.match_id).sort()).toEqual(played.map((r) => r.matchId).sort());
    const ended = rows.map((r) => String(r.ended_at));
    expect(ended).toEqual([...ended].sort().reverse());
    const forfeit = rows.find((r) => r.kind === 'forfeit');
    expect(String(forfeit?.sides_played)).toMatch(/Axis crash:after=5@1: loss/);
  });
});

// ------------------------------------------------------------------------------------------- Prometheus

/** The code that runs: TypeScript under apps/ and packages/, without tests or node_modules. */
function walk(dir: string, keep: (path: string) => boolean, skip: (name: string) => boolean): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (skip(name)) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p, keep, skip));
    else if (keep(p)) out.push(p);
  }
  return out;
}
const sources = ['apps', 'packages']
  .flatMap((d) => walk(join(root, d), (p) => p.endsWith('.ts') && !p.endsWith('.test.ts') && !p.endsWith('.d.ts'), (n) => n === 'node_modules' || n === 'test' || n === 'dist'))
  .map((p) => ({ path: rel(p), text: readFileSync(p, 'utf8') }));

const require = createRequire(import.meta.url);
/** prom-client's default metrics, as its own source names them. */
const promClientDefaults = walk(join(dirname(require.resolve('prom-client')), 'lib', 'metrics'), (p) => p.endsWith('.js'), () => false).map((p) => readFileSync(p, 'utf8'));
/** BullMQ's `Queue.exportPrometheusMetrics`, as its own source names them. */
const bullmqSources = walk(dirname(require.resolve('bullmq')), (p) => p.endsWith('.js'), () => false).map((p) => readFileSync(p, 'utf8'));

/**
 * The dashboard API's two metrics. The API, written alongside these dashboards, registers exactly these
 * names (apps/api/src/metrics.ts); they are accepted here even before its code lands.
 */
const API_METRICS = ['salient_api_http_requests_total', 'salient_api_http_request_duration_seconds'];

const quoted = (name: string): RegExp => new RegExp(`['"\`]${name}['"\`]`);

/** The Prometheus jobs infra/prometheus/prometheus.yml scrapes, by name, with their targets. */
const scraped: Map<string, string[]> = (() => {
  const doc = parseYaml(read('infra/prometheus/prometheus.yml')) as { scrape_configs?: { job_name?: string; static_configs?: { targets?: string[] }[]; dns_sd_configs?: { names?: string[]; port?: number }[] }[] };
  return new Map(
    (doc.scrape_configs ?? []).map((c) => [
      String(c.job_name),
      [...(c.static_configs ?? []).flatMap((x) => x.targets ?? []), ...(c.dns_sd_configs ?? []).flatMap((x) => (x.names ?? []).map((n) => `${n}:${x.port ?? ''}`))],
    ]),
  );
})();

/** The Debian package's redis_exporter (prometheus-redis-exporter), the exporter compose and Kubernetes run as `redis-exporter`. */
const REDIS_EXPORTER_BIN = '/usr/bin/prometheus-redis-exporter';

/**
 * What the exporters infra runs beside Redis and ClickHouse export, asked of the real thing: the metric
 * names a real redis_exporter serves for a real redis-server, and the names ClickHouse's Prometheus
 * endpoint derives from its profile events and current metrics (`ClickHouseProfileEvents_<event>`,
 * `ClickHouseMetrics_<metric>`: src/Server/PrometheusMetricsWriter.cpp), read from the system tables of
 * the embedded ClickHouse the balance checks use. Filled in beforeAll below.
 */
const foreign = { redis: new Set<string>(), clickhouseEvents: new Set<string>(), clickhouseMetrics: new Set<string>() };

/** The metric names a real redis_exporter serves for a real, empty redis-server. */
async function redisExporterNames(): Promise<Set<string>> {
  if (!existsSync(REDIS_EXPORTER_BIN)) {
    throw new Error(`${REDIS_EXPORTER_BIN} is missing, so the Redis panels cannot be checked. Install the Debian prometheus-redis-exporter package (npm test does, through scripts/ensure-system.mjs).`);
  }
  const redis = await startRedisServer();
  const [port] = await freePorts(1);
  const exporter = spawn(REDIS_EXPORTER_BIN, ['-redis.addr', redis.url, '-web.listen-address', `127.0.0.1:${port}`], { stdio: 'ignore' });
  try {
    for (let i = 0; ; i++) {
      try {
        const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
        // Up and connected: it reports redis_up 1 once it has read Redis' INFO.
        if (/^redis_up 1$/m.test(text)) return new Set([...text.matchAll(/^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{| )/gm)].map((m) => m[1] ?? ''));
      } catch {
        // not listening yet
      }
      if (i > 100) throw new Error(`redis_exporter did not serve metrics for ${redis.url} on port ${port} within 10 s`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    exporter.kill();
    await redis.dispose();
  }
}

beforeAll(async () => {
  foreign.redis = await redisExporterNames();
  const names = async (sql: string): Promise<Set<string>> => new Set(((await (await telemetry.client.query({ query: sql, format: 'JSONEachRow' })).json()) as { name: string }[]).map((r) => r.name));
  foreign.clickhouseEvents = await names('SELECT name FROM system.events SETTINGS system_events_show_zero_values = 1');
  foreign.clickhouseMetrics = await names('SELECT name FROM system.metrics');
}, 60_000);

/** Where `name` comes from, or undefined when nothing here exports it. Histogram series resolve to their histogram. */
function exporterOf(name: string): string | undefined {
  const base = /^(.*)_(?:bucket|sum|count)$/.exec(name)?.[1];
  for (const candidate of base === undefined ? [name] : [name, base]) {
    const own = sources.find((s) => quoted(candidate).test(s.text));
    if (own) return own.path;
    if (promClientDefaults.some((t) => quoted(candidate).test(t)) && sources.some((s) => s.text.includes('collectDefaultMetrics('))) return 'prom-client default metrics';
    if (bullmqSources.some((t) => t.includes(candidate)) && sources.some((s) => s.text.includes('.exportPrometheusMetrics('))) return 'BullMQ exportPrometheusMetrics';
    if (API_METRICS.includes(candidate)) return 'the dashboard API';
  }
  // The exporters infra runs, as far as Prometheus scrapes them and ClickHouse is told to serve them.
  if (foreign.redis.has(name) && scraped.get('redis')?.includes('redis-exporter:9121')) return 'redis_exporter (job redis)';
  const clickhouseServes = scraped.get('clickhouse')?.includes('clickhouse:9363') && /<prometheus>[\s\S]*<port>9363<\/port>[\s\S]*<\/prometheus>/.test(read('infra/clickhouse/config.d/salient.xml'));
  const event = /^ClickHouseProfileEvents_(\w+)$/.exec(name)?.[1];
  if (event !== undefined && foreign.clickhouseEvents.has(event) && clickhouseServes && /<events>true<\/events>/.test(read('infra/clickhouse/config.d/salient.xml'))) return 'ClickHouse /metrics (job clickhouse)';
  const metric = /^ClickHouseMetrics_(\w+)$/.exec(name)?.[1];
  if (metric !== undefined && foreign.clickhouseMetrics.has(metric) && clickhouseServes && /<metrics>true<\/metrics>/.test(read('infra/clickhouse/config.d/salient.xml'))) return 'ClickHouse /metrics (job clickhouse)';
  return undefined;
}

describe('salient-operations.json', () => {
  const ops = dashboard('salient-operations.json');
  const exprs = ops.panels.flatMap((p) => p.targets.map((t) => ({ where: `"${p.title}" ${t.refId}`, expr: t.expr ?? '' })));

  it('every metric a query or variable reads is exported: by Salient’s code, prom-client’s defaults, BullMQ, the API, or the Redis and ClickHouse exporters infra runs', () => {
    const names = [...exprs.flatMap((e) => promqlMetricNames(e.expr).map((n) => [e.where, n] as const)), ...ops.variables.flatMap((v) => promVariableMetricNames(v.query ?? '').map((n) => [`variable ${v.name}`, n] as const))];
    expect(names.length).toBeGreaterThan(0);
    for (const [where, name] of names) expect(exporterOf(name), `${where}: nothing in this repository exports ${name}`).toBeDefined();
  });

  it('the exporter lookup is not a rubber stamp', () => {
    expect(exporterOf('salient_matches_total')).toBe('apps/worker/src/metrics.ts');
    expect(exporterOf('salient_match_duration_seconds_bucket')).toBe('apps/worker/src/metrics.ts');
    expect(exporterOf('process_resident_memory_bytes')).toBe('prom-client default metrics');
    expect(exporterOf('bullmq_job_count')).toBe('BullMQ exportPrometheusMetrics');
    expect(exporterOf('salient_no_such_metric_total')).toBeUndefined();
    expect(exporterOf('salient_matches_bucket')).toBeUndefined();
    expect(foreign.redis.size, 'names read from the real redis_exporter').toBeGreaterThan(20);
    expect(exporterOf('redis_memory_used_bytes')).toBe('redis_exporter (job redis)');
    expect(exporterOf('redis_no_such_metric')).toBeUndefined();
    expect(exporterOf('ClickHouseProfileEvents_InsertQuery')).toBe('ClickHouse /metrics (job clickhouse)');
    expect(exporterOf('ClickHouseMetrics_PartsActive')).toBe('ClickHouse /metrics (job clickhouse)');
    expect(exporterOf('ClickHouseMetrics_InsertQuery')).toBeUndefined();
    expect(exporterOf('ClickHouseProfileEvents_NoSuchEvent')).toBeUndefined();
  });

  it('Redis and ClickHouse panels read the jobs Prometheus scrapes them as', () => {
    const foreignExprs = exprs.filter((e) => /\b(redis_|ClickHouse)/.test(e.expr));
    expect(foreignExprs.length).toBeGreaterThan(0);
    for (const e of foreignExprs) {
      const job = /job="([^"]+)"/.exec(e.expr)?.[1];
      expect(job, `${e.where}: names its job`).toBeDefined();
      expect(scraped.has(String(job)), `${e.where}: job ${String(job)} is not in infra/prometheus/prometheus.yml (${[...scraped.keys()].join(', ')})`).toBe(true);
      expect(job, e.where).toBe(/\bredis_/.test(e.expr) ? 'redis' : 'clickhouse');
    }
  });

  it('covers match throughput, duration, decisions, queue depth, the processes, the API, the telemetry spool, Redis and ClickHouse', () => {
    const all = exprs.map((e) => e.expr).join('\n');
    for (const name of [
      'salient_matches_total',
      'salient_match_duration_seconds_bucket',
      'salient_decisions_total',
      'bullmq_job_count',
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'salient_api_http_requests_total',
      'salient_api_http_request_duration_seconds_bucket',
      'salient_spool_pending_matches',
      'salient_spool_oldest_age_seconds',
      'redis_memory_used_bytes',
      'redis_connected_clients',
      'redis_commands_processed_total',
      'ClickHouseProfileEvents_InsertQuery',
      'ClickHouseProfileEvents_InsertedRows',
      'ClickHouseMetrics_PartsActive',
      'ClickHouseProfileEvents_SelectQuery',
    ]) {
      expect(exprs.some((e) => promqlMetricNames(e.expr).includes(name)), name).toBe(true);
    }
    expect(all).toMatch(/sum by \(result\) \(rate\(salient_matches_total/);
    expect(all).toMatch(/sum by \(route, status_code\) \(rate\(salient_api_http_requests_total/);
    expect(all).toMatch(/histogram_quantile\(0\.95, sum by \(le, route\) \(rate\(salient_api_http_request_duration_seconds_bucket/);
    // BullMQ's gauges read Redis, so every worker reports the same counts: max, never sum.
    for (const e of exprs.filter((x) => x.expr.includes('bullmq_'))) expect(e.expr, e.where).toMatch(/^max by /);
  });
});
