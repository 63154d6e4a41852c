/**
 * Tournament specs: YAML or JSON text, checked in two passes: the shape (zod), and the names against
 * this installation (game, pack, scenarios, bots, entrant names in `reference`/`pairings`) and the
 * counts. The second pass runs on every part the first found well-formed, so every problem is
 * reported at once, sorted by its path in the spec (`entrants[2].bot`) and located, where the text is
 * at hand, by line and column; a syntax error gives `<file>:<line>:<column>`.
 *
 * The result is a normalized {@link TournamentSpec}: every default filled in, bot params merged into
 * the bot spec, seeds listed. Checking a normalized spec again gives it back unchanged.
 */
import { readFile, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import {
  SalientError,
  INPUT_LIMITS,
  canonicalJson,
  checkDepth,
  checkSize,
  hashJson,
  parseStructuredText,
  textFormat,
  type TextFormat,
  type TextFormatReason,
  type AnyGame,
  type JsonObject,
  type LoadedPack,
  type PathIssue,
} from '@salient/engine';
import { bundledPackIds, findGame, findScenario, isDirectory, loadPack } from '@salient/catalog';
import { botCatalog, createBot, parseBotSpec, refusedBot, refusedPack, registeredBot, NO_EXTERNAL_BOTS, type ExternalBots } from '@salient/bots';
import { isExternalBotSpec } from '@salient/runner';
import { formerSweepLevelName, hashedEntrantNames, sweepLevelName } from './sweep-level.ts';
import type { EntrantSpec, StopSpec, SweepSpec, TournamentFormat, TournamentSpec } from './types.ts';

/** Largest plan a spec may ask for; beyond this a typo (an extra zero) is far likelier than intent. */
export const MAX_MATCHES = 1_000_000;

/**
 * A tournament id, which is also a regression run's tag (`salient regress --tag v0.12`), so version
 * tags fit: `v1.2.3`, `2026.11-rc1`, `main_2026-11-23`. It is kept to letters, digits and `. _ -`
 * (starting with a letter or digit, at most 63 characters) because it goes unescaped into places
 * where anything else would break: Redis keys (`salient:tournament:<id>:plan`, where a `:` would blur
 * the key's parts), URL paths and query strings (`/api/tournaments/<id>`, where `/ ? # % +` and spaces
 * change meaning), SQL string literals (quotes, backslashes) and terminal lines (control characters).
 */
export const TOURNAMENT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;
/** What {@link TOURNAMENT_ID} allows, in words, for error messages. */
export const TOURNAMENT_ID_RULE = "letters, digits and . _ - only, starting with a letter or digit, at most 63 characters (such as 'blitz-smoke', 'v0.12' or '2026.11-rc1')";
const PARAM_KEY = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

const TOP_FIELDS = [
  'id', 'name', 'game', 'pack', 'scenarios', 'options', 'entrants', 'format', 'reference', 'pairings', 'sweep',
  'gamesPerPairing', 'sideSwap', 'seeds', 'baseSeed', 'decisionTimeoutMs', 'decisionCap', 'timeBankMs', 'strikes', 'stop',
] as const;
const ENTRANT_FIELDS = ['name', 'bot', 'params', 'version'] as const;
const STOP_FIELDS = ['rule', 'elo0', 'elo1', 'alpha', 'beta'] as const;
const SWEEP_FIELDS = ['bot', 'param', 'levels'] as const;
const FORMATS = ['round-robin', 'gauntlet', 'pairings', 'strength-sweep'] as const;

const seed = z
  .number()
  .int('must be a whole number')
  .min(0, 'must be 0 or more')
  .max(Number.MAX_SAFE_INTEGER, `must be at most ${Number.MAX_SAFE_INTEGER}`);
const positiveInt = z.number().int('must be a whole number').min(1, 'must be 1 or more');
const probability = z
  .number()
  .gt(0, 'must be above 0')
  .lte(0.5, 'must be at most 0.5 (a typical value is 0.05)');

const scenarioId = z.string().trim().min(1, 'must not be empty');

const entrantSchema = z.preprocess(
  // `- random` is short for `- { bot: random }`.
  (v) => (typeof v === 'string' ? { bot: v } : v),
  z.strictObject({
    name: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters').optional(),
    bot: z.string().trim().min(1, 'must name a bot, such as random or greedy:chance=0'),
    params: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
    version: z.string().trim().min(1, 'must not be empty').optional(),
  }),
);

const stopSchema = z.preprocess(
  (v) => (typeof v === 'string' ? { rule: v } : v),
  z.discriminatedUnion(
    'rule',
    [
      z.strictObject({ rule: z.literal('fixed') }),
      z
        .strictObject({
          rule: z.literal('sprt'),
          elo0: z.number(),
          elo1: z.number(),
          alpha: probability.default(0.05),
          beta: probability.default(0.05),
        })
        .refine((s) => s.elo0 < s.elo1, { message: 'elo0 must be below elo1 (for example elo0: 0, elo1: 5)', path: ['elo1'] }),
    ],
    { error: "rule must be 'fixed' or 'sprt'" },
  ),
);

const sweepSchema = z.strictObject({
  bot: z.string().trim().min(1, 'must name a bot, such as mcts:rollout=0'),
  param: z.string().regex(PARAM_KEY, 'must be a parameter name of the bot, such as iterations (letters, digits, _ . and -, starting with a letter or _)'),
  levels: z
    .array(z.number().gt(0, 'must be above 0'), { error: 'must be a list of parameter values, such as [50, 200, 800]' })
    .min(2, 'list at least two levels (a sweep compares each level with the one below it)'),
});

const rawSpecSchema = z.strictObject({
  id: z
    .string()
    .regex(TOURNAMENT_ID, `must be ${TOURNAMENT_ID_RULE}`)
    .optional(),
  name: z.string().trim().min(1, 'must not be empty').optional(),
  game: z.string().trim().min(1, 'must not be empty').optional(),
  pack: z.string().trim().min(1, 'must not be empty').optional(),
  scenarios: z.preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(scenarioId).min(1, 'list at least one scenario')),
  options: z.record(z.string(), z.json()).optional(),
  // Required by every format but strength-sweep, whose entrants are its levels (checked by name below).
  entrants: z.array(entrantSchema).min(2, 'list at least two entrants').optional(),
  format: z
    .enum(FORMATS, { error: "must be 'round-robin', 'gauntlet', 'pairings' or 'strength-sweep'" })
    .default('round-robin'),
  sweep: sweepSchema.optional(),
  reference: z.string().optional(),
  pairings: z
    .array(z.tuple([z.string(), z.string()], { error: 'must be a pair of entrant names, such as [random, greedy]' }))
    .min(1, 'list at least one pairing')
    .optional(),
  gamesPerPairing: positiveInt.optional(),
  sideSwap: z.boolean().default(true),
  seeds: z.array(seed).min(1, 'list at least one seed, or drop seeds and use baseSeed').optional(),
  baseSeed: seed.optional(),
  decisionTimeoutMs: positiveInt.optional(),
  decisionCap: positiveInt.optional(),
  timeBankMs: z.number().int('must be a whole number of ms').min(0, 'must be 0 or more').optional(),
  strikes: positiveInt.optional(),
  stop: stopSchema.default({ rule: 'fixed' }),
});

type RawSpec = z.infer<typeof rawSpecSchema>;
type RawEntrant = NonNullable<RawSpec['entrants']>[number];
type RawSweep = z.infer<typeof sweepSchema>;

/**
 * What the names pass can check of a spec the shape pass refused: each field as the shape pass reads
 * it, absent when it is missing or malformed (`bad` says which), and the scenarios and entrants one by
 * one (a malformed one is `undefined`, so the others keep their index).
 */
interface Parts extends Omit<Partial<RawSpec>, 'scenarios' | 'entrants'> {
  scenarios?: readonly (string | undefined)[];
  entrants?: readonly (RawEntrant | undefined)[] | undefined;
  /** Malformed fields: whatever depends on them is not checked (it would only repeat the shape's complaint). */
  bad: ReadonlySet<string>;
  /** Names of malformed entrants, where still readable; `undefined` when one has no readable name. */
  looseNames: readonly string[] | undefined;
}

/** Every well-formed part of `raw` (see {@link Parts}). */
function wellFormedParts(raw: unknown): Parts {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { bad: new Set(TOP_FIELDS), looseNames: undefined };
  const o = raw as Record<string, unknown>;
  const shape = rawSpecSchema.shape;
  const out: Record<string, unknown> = {};
  const bad = new Set<string>();
  for (const key of TOP_FIELDS) {
    if (key === 'scenarios' || key === 'entrants') continue;
    const r = shape[key].safeParse(o[key]);
    if (r.success) out[key] = r.data;
    else bad.add(key);
  }
  const one = <T>(schema: z.ZodType<T>, v: unknown): T | undefined => {
    const r = schema.safeParse(v);
    return r.success ? r.data : undefined;
  };
  const scenarios = typeof o.scenarios === 'string' ? [o.scenarios] : o.scenarios;
  if (Array.isArray(scenarios)) out.scenarios = scenarios.map((v) => one(scenarioId, v));
  else bad.add('scenarios');
  let looseNames: string[] | undefined = [];
  if (Array.isArray(o.entrants)) {
    out.entrants = o.entrants.map((v) => {
      const e = one(entrantSchema, v);
      if (e === undefined && looseNames) {
        // Its name as given, or its bot spec when nothing else would go into the name.
        const f = typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {};
        const name = typeof f.name === 'string' ? f.name : f.params === undefined && typeof f.bot === 'string' ? f.bot : undefined;
        if (name !== undefined && name.trim() !== '') looseNames.push(name.trim());
        else looseNames = undefined;
      }
      return e;
    });
  } else if (o.entrants !== undefined) bad.add('entrants');
  return { ...(out as Omit<Parts, 'bad' | 'looseNames'>), bad, looseNames };
}

/** Spec paths in document order of their parts: fields by name, list items by index. */
function comparePaths(a: Path, b: Path): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const [x, y] = [a[i], b[i]];
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    if (typeof x === 'number') return -1;
    if (typeof y === 'number') return 1;
    return String(x) < String(y) ? -1 : 1;
  }
  return a.length - b.length;
}
type Path = readonly PropertyKey[];
interface Issue {
  path: Path;
  message: string;
}

/** A spec checked against this installation, with what planning needs. */
export interface ResolvedTournament {
  spec: TournamentSpec;
  specHash: string;
  game: AnyGame;
  pack: LoadedPack;
  /** Scenario id -> its two side ids, in the scenario's order. */
  sides: ReadonlyMap<string, readonly [string, string]>;
}

export interface SpecOptions {
  /** Directory a relative `pack` directory is taken from (default: the spec file's, else the cwd). */
  baseDir?: string;
  /** The operator's bots file: `ext:<name>` entrants are looked up there (default: none). */
  bots?: ExternalBots;
  /**
   * The spec comes from someone other than the operator and goes to the queue (the API, `tournament
   * submit`): a `cmd:` or `http(s)://` entrant must be allowed by `bots` (`refusedBot`), since it
   * would run a program or call a host on the workers, and a `pack` directory must be one its
   * `allow.packs` lists (`refusedPack`). Local runs leave this off: there the user is the operator.
   */
  submitted?: boolean;
}

/**
 * Parse and check a tournament spec, YAML or JSON as {@link specFormat} decides from `o.format`,
 * `source`'s extension or the text.
 *
 * Fields (defaults in brackets):
 * - `id` [`t-` + the spec hash]: `[A-Za-z0-9][A-Za-z0-9._-]{0,62}` ({@link TOURNAMENT_ID}). Naming a tournament keeps its match
 *   ids stable when it grows (more seeds, scenarios, entrants), so a re-submitted plan only adds.
 * - `name`: free text. `game` [the catalog default]. `pack` [the game's first bundled pack]: a bundled
 *   pack id or a pack directory (relative to the spec file).
 * - `scenarios`: one or more scenario ids, each with exactly two sides. `options`: scenario options.
 * - `entrants`: two or more of `{ name?, bot, params?, version? }` or just the bot spec. `params`
 *   merge into the bot spec (`bot: greedy`, `params: { chance: 0 }` -> `greedy:chance=0`; true/false
 *   become 1/0); `name` defaults to the merged bot spec and must be unique; `version` pins the bot's
 *   registered version (a different installed version is refused) and defaults to it. An external
 *   bot is `cmd:<command line>` (run from the worker's working directory) or `http(s)://host:port/path`
 *   (docs/bot-protocol.md), or `ext:<name>`, a bot registered in the operator's bots file (`o.bots`,
 *   whose `version` is the entrant's); an external bot takes no `params`. With `o.submitted`,
 *   `cmd:` and `http(s)://` entrants must be allowed by that file.
 * - `format` [round-robin]: `round-robin` (every pair of entrants), `gauntlet` (with `reference`: every
 *   other entrant plays the reference), `pairings` (with `pairings: [[a, b], ...]`) or `strength-sweep`
 *   (with `sweep: { bot, param, levels }` and no `entrants`: one entrant per level, named
 *   `<bot name> <param>=<level>`, its bot `bot` with `param` set to the level; levels rising, at least two; each
 *   level plays itself, one game a seed, so `sideSwap` is off: a mirror match swapped is the same game).
 * - `gamesPerPairing` [2, or as many as `seeds` give]: games each pairing plays on each scenario,
 *   counting both games of a side-swapped pair: with `sideSwap` it must be even and the pairing plays
 *   gamesPerPairing / 2 seeds, each twice; without, gamesPerPairing seeds once each.
 * - `sideSwap` [true]: each seed is played twice with the sides exchanged, so side advantage cancels
 *   out; analyse asymmetric scenarios by pair. Without it the sides alternate from seed to seed.
 * - `seeds` (explicit list, no repeats) or `baseSeed` [1] (seeds baseSeed, baseSeed + 1, ...), not
 *   both. Every pairing plays the same seeds.
 * - `decisionTimeoutMs`, `decisionCap`: passed to every match.
 * - `timeBankMs` [0], `strikes` [1]: each seat's time bank (a decision may run over
 *   `decisionTimeoutMs` by drawing on it) and how many overruns it may make: an overrun before the
 *   last plays the seat's first offered option, the last forfeits (`timeout`). Passed to every match;
 *   part of the spec hash and match ids only when given.
 * - `stop` [`{ rule: fixed }`]: or `{ rule: sprt, elo0, elo1, alpha [0.05], beta [0.05] }` (checked
 *   here; bounds in normalized Elo; planning checks it is a two-entrant gauntlet with side swap).
 *
 * Throws `BAD_SPEC` listing every problem, or `IO` if the file cannot be read.
 */
export async function parseTournamentSpec(text: string, source: string, o: SpecOptions & { format?: SpecFormat } = {}): Promise<TournamentSpec> {
  const { raw, locate } = readSpecText(text, source, o.format);
  return (await resolveTournamentSpec(raw, source, { ...o, locate })).spec;
}

/** Read and check the spec file at `path`; a relative pack directory is taken from the file's directory. */
export async function loadTournamentSpec(path: string, o: Omit<SpecOptions, 'baseDir'> = {}): Promise<TournamentSpec> {
  let text: string;
  try {
    checkSize((await stat(path)).size, INPUT_LIMITS.spec, path, 'BAD_SPEC');
    text = await readFile(path, 'utf8');
  } catch (e) {
    if (e instanceof SalientError) throw e;
    throw new SalientError('IO', `Cannot read tournament spec ${path}: ${(e as Error).message}. Check the path.`);
  }
  return parseTournamentSpec(text, path, { ...o, baseDir: dirname(resolve(path)) });
}

/** Check an already parsed spec (a JSON request body, a normalized spec). */
export async function checkTournamentSpec(raw: unknown, source = 'tournament spec', o: SpecOptions = {}): Promise<TournamentSpec> {
  return (await resolveTournamentSpec(raw, source, o)).spec;
}

/** Where a path is in the spec text, as `line L, column C`, if known. */
type Locate = (path: Path) => string | undefined;

/** The two formats a spec may be written in. */
export type SpecFormat = TextFormat;

/** How {@link specFormat} decided: the caller said so, the file's extension, or the text itself. */
export type SpecFormatReason = TextFormatReason;

/**
 * The format to read a tournament spec in, decided the same way for every entry point (CLI files, API
 * bodies) and for every other document read from outside (the bots file): see `textFormat` in
 * @salient/engine. JSON is read by the JSON parser, never as YAML, so text the CLI refuses as JSON (a
 * trailing comma, a comment) is refused everywhere.
 */
export const specFormat = textFormat;

/**
 * Parse spec text as {@link specFormat} decides, within the spec's size and depth limits. Problems throw
 * `BAD_SPEC` as `<source>:<line>:<column>: ...`.
 */
function readSpecText(text: string, source: string, given?: SpecFormat): { raw: unknown; locate: Locate } {
  const doc = parseStructuredText(text, source, { limit: INPUT_LIMITS.spec, code: 'BAD_SPEC', ...(given ? { format: given } : {}) });
  if (doc.raw === undefined || doc.raw === null) throw emptySpec(source);
  return {
    raw: doc.raw,
    locate: (path) => {
      const at = doc.locate(path);
      return at ? `line ${at.line}, column ${at.column}` : undefined;
    },
  };
}

function emptySpec(source: string): SalientError {
  return new SalientError('BAD_SPEC', `${source}: the tournament spec is empty. Give at least scenarios and entrants (see examples/tournaments/).`);
}

/**
 * Check `raw` and resolve it against the catalog: the normalized spec, its hash, the game, the pack and
 * each scenario's two sides. Planning uses this; throws `BAD_SPEC` listing every problem.
 */
export async function resolveTournamentSpec(
  raw: unknown,
  source = 'tournament spec',
  // registeredAsGiven: `ext:` entrants are not looked up (see `planTournament`).
  o: SpecOptions & { locate?: Locate; registeredAsGiven?: boolean } = {},
): Promise<ResolvedTournament> {
  const fail = (issues: readonly Issue[]): never => {
    const n = issues.length;
    const located: PathIssue[] = issues.map((i) => {
      const where = o.locate?.(i.path);
      const message = /[.!?]$/.test(i.message) ? i.message : `${i.message}.`;
      return { path: pathText(i.path), message: where ? `${message} (${where})` : message };
    });
    throw new SalientError('BAD_SPEC', `${source}: invalid tournament spec (${n} problem${n === 1 ? '' : 's'}); fix ${n === 1 ? 'it' : 'them'} and try again.`, located);
  };
  // A parsed body (the API's) has not been through readSpecText: keep zod off runaway nesting.
  checkDepth(raw, INPUT_LIMITS.spec, source, 'BAD_SPEC');
  const parsed = rawSpecSchema.safeParse(raw);
  // The names pass runs on whatever is well-formed, so a bad type and an unknown bot come out together.
  const s: Parts = parsed.success ? { ...parsed.data, bad: new Set(), looseNames: [] } : wellFormedParts(raw);
  const issues: Issue[] = parsed.success ? [] : zodToIssues(parsed.error);
  const ok = (...fields: string[]) => fields.every((f) => !s.bad.has(f));

  // Game, pack, scenarios, options.
  let game: AnyGame | undefined;
  let pack: LoadedPack | undefined;
  let packRef = s.pack ?? '';
  try {
    if (ok('game')) game = findGame(s.game);
  } catch (e) {
    issues.push({ path: ['game'], message: messageOf(e) });
  }
  if (game && ok('pack')) {
    const ids = bundledPackIds(game);
    packRef = s.pack ?? ids[0] ?? '';
    // A submitter learns nothing of this machine's directories: only the operator's list is looked at.
    const refused = o.submitted && !ids.includes(packRef) ? refusedPack(resolve(o.baseDir ?? process.cwd(), packRef), ids, o.bots ?? NO_EXTERNAL_BOTS) : undefined;
    if (refused) {
      issues.push({ path: ['pack'], message: refused.replace(resolve(o.baseDir ?? process.cwd(), packRef), packRef) });
      packRef = '';
    } else if (!ids.includes(packRef)) {
      const dir = resolve(o.baseDir ?? process.cwd(), packRef);
      if (isDirectory(dir)) packRef = dir;
      else {
        issues.push({
          path: ['pack'],
          message: `unknown pack '${packRef}': neither a bundled pack of ${game.id} (${ids.join(', ') || 'none'}) nor a directory${o.baseDir ? ` (relative paths are taken from ${o.baseDir})` : ''}.`,
        });
        packRef = '';
      }
    }
    if (packRef !== '') {
      try {
        pack = await loadPack(game, packRef);
      } catch (e) {
        issues.push({ path: ['pack'], message: messageOf(e) });
      }
    }
  }
  const sides = new Map<string, readonly [string, string]>();
  if (game && pack) {
    const seen = new Set<string>();
    (s.scenarios ?? []).forEach((id, i) => {
      if (id === undefined) return;
      if (seen.has(id)) return void issues.push({ path: ['scenarios', i], message: `scenario '${id}' is listed twice; list each once (use gamesPerPairing for more games).` });
      seen.add(id);
      let info;
      try {
        info = findScenario(game, pack, id);
      } catch (e) {
        return void issues.push({ path: ['scenarios', i], message: messageOf(e) });
      }
      const [a, b, ...rest] = info.sides;
      if (!a || !b || rest.length) {
        return void issues.push({
          path: ['scenarios', i],
          message: `scenario '${id}' has ${info.sides.length} side(s) (${info.sides.map((x) => x.id).join(', ')}); tournaments pair two entrants, so only two-sided scenarios can be played.`,
        });
      }
      sides.set(id, [a.id, b.id]);
    });
    const optionProblems = new Set<string>();
    for (const id of ok('options') ? sides.keys() : []) {
      try {
        game.setup(id, pack, s.options);
      } catch (e) {
        if (!(e instanceof SalientError)) throw e;
        optionProblems.add(e.message);
      }
    }
    for (const m of optionProblems) issues.push({ path: ['options'], message: m });
  }

  // A strength sweep's entrants are its levels; every other format lists them.
  const format: TournamentFormat | undefined = ok('format') ? s.format : undefined;
  let sweep: { sweep: SweepSpec; entrants: EntrantSpec[] } | undefined;
  if (format === 'strength-sweep' && ok('sweep')) {
    if (s.sweep === undefined) {
      issues.push({
        path: ['sweep'],
        message: "format strength-sweep needs sweep: { bot, param, levels }, such as sweep: { bot: 'mcts:rollout=0', param: iterations, levels: [50, 200, 800] }.",
      });
    } else sweep = sweepEntrants(s.sweep, issues, o);
  }
  if (format !== undefined && format !== 'strength-sweep' && s.sweep !== undefined) {
    issues.push({ path: ['sweep'], message: `sweep is only used with format: strength-sweep (format is ${format}); remove it or change the format.` });
  }
  if (format === 'strength-sweep' && typeof raw === 'object' && raw !== null && (raw as Record<string, unknown>).sideSwap === true) {
    issues.push({
      path: ['sideSwap'],
      message: 'a strength sweep plays each level against itself, so a side-swapped game would be the same game again (same seed, same bots); remove sideSwap: each game already gives both sides the same bot.',
    });
  }
  const sideSwap = format === 'strength-sweep' ? false : (s.sideSwap ?? true);

  // Entrants.
  const listed = (s.entrants ?? []).map((e, i) => (e === undefined ? undefined : normalizeEntrant(e, i, issues, o)));
  if (format !== undefined && format !== 'strength-sweep' && s.entrants === undefined && !s.bad.has('entrants')) {
    issues.push({ path: ['entrants'], message: 'is required: list at least two entrants, such as [random, greedy].' });
  }
  let entrants = listed;
  if (format === 'strength-sweep' && sweep) {
    // A normalized spec lists the levels it made (with their versions): checked again, they must be the
    // same. One stored before the levels were renamed names them the former way (`mcts@800`); it keeps
    // those names, so its plan's entrant names are the ones its recorded outcomes were kept under.
    const same = (a: readonly (EntrantSpec | undefined)[], b: readonly EntrantSpec[], w: SweepSpec) =>
      a.length === b.length &&
      a.every((e, i) => {
        const level = w.levels[i];
        return e !== undefined && level !== undefined && (e.name === b[i]?.name || e.name === formerSweepLevelName(w, level)) && e.bot === b[i]?.bot;
      });
    if (s.entrants === undefined) entrants = sweep.entrants;
    else if (!same(listed, sweep.entrants, sweep.sweep)) {
      issues.push({
        path: ['entrants'],
        message: `a strength sweep's entrants are its levels (${sweep.entrants.map((e) => e.name).join(', ')}), made from sweep; remove entrants.`,
      });
    }
  }
  const byName = new Map<string, number>();
  entrants.forEach((e, i) => {
    if (e === undefined) return;
    const first = byName.get(e.name);
    if (first === undefined) return void byName.set(e.name, i);
    issues.push({
      path: ['entrants', i, s.entrants?.[i]?.name === undefined ? 'bot' : 'name'],
      message: `entrant name '${e.name}' is already used by entrants[${first}]; give each entrant its own name (two entrants with the same bot need a name each).`,
    });
  });
  const names = [...entrants.flatMap((e) => (e ? [e.name] : [])), ...(s.looseNames ?? [])];
  // A malformed entrant whose name cannot be read may be the one named: no "no entrant is named" then.
  const known = (n: string) => byName.has(n) || s.looseNames === undefined || s.looseNames.includes(n);
  const nameList = [...new Set(names)].join(', ');

  // Format: with a malformed format, reference or pairings, what they say of each other is unknown.
  if (format !== undefined && ok('reference', 'pairings')) {
    if (s.reference !== undefined && format !== 'gauntlet') {
      issues.push({ path: ['reference'], message: `reference is only used with format: gauntlet (format is ${format}); remove it or change the format.` });
    }
    if (s.pairings !== undefined && format !== 'pairings') {
      issues.push({ path: ['pairings'], message: `pairings are only used with format: pairings (format is ${format}); remove them or change the format.` });
    }
    if (format === 'gauntlet') {
      if (s.reference === undefined) issues.push({ path: ['reference'], message: `format gauntlet needs reference: the entrant every other entrant plays (one of ${nameList}).` });
      else if (!known(s.reference)) issues.push({ path: ['reference'], message: `no entrant is named '${s.reference}'. Entrants: ${nameList}.` });
    }
    if (format === 'pairings') {
      if (s.pairings === undefined) issues.push({ path: ['pairings'], message: `format pairings needs pairings: [[a, b], ...] of entrant names (${nameList}).` });
      const seen = new Map<string, number>();
      (s.pairings ?? []).forEach(([a, b], k) => {
        let ok = true;
        [a, b].forEach((n, j) => {
          if (!known(n)) {
            ok = false;
            issues.push({ path: ['pairings', k, j], message: `no entrant is named '${n}'. Entrants: ${nameList}.` });
          }
        });
        if (!ok) return;
        if (a === b) {
          return void issues.push({
            path: ['pairings', k],
            message: `'${a}' is paired with itself; to play a bot against itself, list it twice under two names and pair those.`,
          });
        }
        const key = canonicalJson([a, b].sort());
        const first = seen.get(key);
        if (first !== undefined) issues.push({ path: ['pairings', k], message: `${a} and ${b} are already paired in pairings[${first}]; list each pairing once (use gamesPerPairing for more games).` });
        else seen.set(key, k);
      });
    }
  }

  // Seeds and counts: they depend on each other, so only when all four are well-formed.
  const perSeed = sideSwap ? 2 : 1;
  let seeds: number[] = [];
  let gamesPerPairing = s.gamesPerPairing ?? (s.seeds ? s.seeds.length * perSeed : 2);
  if (ok('sideSwap', 'seeds', 'baseSeed', 'gamesPerPairing')) {
    if (s.seeds !== undefined && s.baseSeed !== undefined) {
      issues.push({ path: ['baseSeed'], message: 'give either seeds (an explicit list) or baseSeed (seeds counted up from it), not both.' });
    }
    if (sideSwap && gamesPerPairing % 2 !== 0) {
      issues.push({
        path: ['gamesPerPairing'],
        message: `is ${gamesPerPairing}, but with sideSwap every seed is played twice (sides exchanged), so it counts games in pairs and must be even; use ${gamesPerPairing + 1}, or set sideSwap: false.`,
      });
      gamesPerPairing += 1;
    }
    if (s.seeds !== undefined) {
      const at = new Map<number, number>();
      s.seeds.forEach((x, j) => {
        const first = at.get(x);
        if (first !== undefined) issues.push({ path: ['seeds', j], message: `seed ${x} is already seeds[${first}]; list each seed once.` });
        else at.set(x, j);
      });
      seeds = [...s.seeds];
      if (s.gamesPerPairing !== undefined && s.gamesPerPairing !== seeds.length * perSeed) {
        issues.push({
          path: ['gamesPerPairing'],
          message: `is ${s.gamesPerPairing}, but ${seeds.length} seed(s)${sideSwap ? ', each played twice with sides swapped,' : ''} make ${seeds.length * perSeed} games per pairing; drop gamesPerPairing or make the two agree.`,
        });
      }
    } else {
      const base = s.baseSeed ?? 1;
      const n = gamesPerPairing / perSeed;
      if (base + n - 1 > Number.MAX_SAFE_INTEGER) issues.push({ path: ['baseSeed'], message: `is too large for ${n} seeds counted up from it; use a smaller baseSeed.` });
      else seeds = Array.from({ length: Math.ceil(n) }, (_, j) => base + j);
    }
  }
  // The plan's size needs every part; a spec with a malformed one is refused anyway.
  if (parsed.success) {
    const pairingCount =
      format === 'round-robin'
        ? (names.length * (names.length - 1)) / 2
        : format === 'gauntlet'
          ? names.length - 1
          : format === 'strength-sweep'
            ? names.length
            : (s.pairings?.length ?? 0);
    const total = seeds.length * perSeed * (s.scenarios?.length ?? 0) * pairingCount;
    if (total > MAX_MATCHES) {
      issues.push({ path: ['gamesPerPairing'], message: `the spec asks for ${total} matches, more than the ${MAX_MATCHES} a plan may hold; use fewer games, scenarios or entrants.` });
    }
  }

  // Sorted by path (stable, so the problems of one path keep the order they were found in).
  if (issues.length || !game || !pack || !parsed.success || format === undefined) return fail([...issues].sort((a, b) => comparePaths(a.path, b.path)));
  const d = parsed.data;
  const players = entrants.filter((e): e is EntrantSpec => e !== undefined);

  const options = d.options && Object.keys(d.options).length ? (d.options as JsonObject) : undefined;
  const hashed = hashedEntrantNames(sweep?.sweep, players);
  const identity = {
    game: game.id,
    rulesVersion: game.rulesVersion,
    pack: { id: pack.info.id, version: pack.info.version, hash: pack.info.hash },
    scenarios: d.scenarios,
    options: options ?? {},
    // A sweep's levels by their former names, so its hash did not change when they were renamed.
    entrants: players.map((e, i) => ({ name: hashed[i] ?? e.name, bot: e.bot, version: e.version ?? null })),
    format,
    reference: d.reference ?? null,
    pairings: d.pairings ?? null,
    // Only for a sweep, so the hashes of the other formats stay the same.
    ...(sweep ? { sweep: sweep.sweep } : {}),
    gamesPerPairing,
    sideSwap,
    seeds,
    decisionTimeoutMs: d.decisionTimeoutMs ?? null,
    decisionCap: d.decisionCap ?? null,
    // Only when given, so the hashes of specs written before these fields existed stay the same.
    ...(d.timeBankMs !== undefined ? { timeBankMs: d.timeBankMs } : {}),
    ...(d.strikes !== undefined ? { strikes: d.strikes } : {}),
    stop: d.stop,
  };
  const specHash = hashJson(identity);
  const spec: TournamentSpec = {
    id: d.id ?? `t-${specHash}`,
    ...(d.name !== undefined ? { name: d.name } : {}),
    game: game.id,
    pack: packRef,
    scenarios: [...d.scenarios],
    ...(options ? { options } : {}),
    entrants: players,
    format,
    ...(format === 'gauntlet' && d.reference !== undefined ? { reference: d.reference } : {}),
    ...(format === 'pairings' && d.pairings ? { pairings: d.pairings.map(([a, b]) => [a, b] as [string, string]) } : {}),
    ...(sweep ? { sweep: sweep.sweep } : {}),
    gamesPerPairing,
    sideSwap,
    seeds,
    ...(d.decisionTimeoutMs !== undefined ? { decisionTimeoutMs: d.decisionTimeoutMs } : {}),
    ...(d.decisionCap !== undefined ? { decisionCap: d.decisionCap } : {}),
    ...(d.timeBankMs !== undefined ? { timeBankMs: d.timeBankMs } : {}),
    ...(d.strikes !== undefined ? { strikes: d.strikes } : {}),
    stop: d.stop as StopSpec,
  };
  return { spec, specHash, game, pack, sides };
}

/**
 * A sweep's bot normalized (parameters sorted) and its levels as entrants, `<bot name> <param>=<level>`
 * each ({@link sweepLevelName}) with the swept parameter set to the level and checked by the bot registry. A problem every level
 * shares (an unknown parameter) is reported once at `sweep.param`, one level's own at `sweep.levels[i]`.
 */
function sweepEntrants(w: RawSweep, issues: Issue[], o: SpecOptions & { registeredAsGiven?: boolean }): { sweep: SweepSpec; entrants: EntrantSpec[] } | undefined {
  let name: string;
  let params: Record<string, string>;
  try {
    ({ name, params } = parseBotSpec(w.bot));
  } catch (err) {
    issues.push({ path: ['sweep', 'bot'], message: messageOf(err) });
    return undefined;
  }
  if (isExternalBotSpec(w.bot)) {
    issues.push({ path: ['sweep', 'bot'], message: `external bot '${w.bot}' takes no parameters, so it cannot be swept; sweep a built-in bot (\`salient games\` lists them and their parameters).` });
    return undefined;
  }
  if (Object.hasOwn(params, w.param)) {
    issues.push({ path: ['sweep', 'param'], message: `${w.param} is also given in sweep.bot '${w.bot}'; remove it from the bot: the levels set it.` });
    return undefined;
  }
  let rising = true;
  w.levels.forEach((x, i) => {
    const prev = w.levels[i - 1];
    if (prev !== undefined && x <= prev) {
      rising = false;
      issues.push({ path: ['sweep', 'levels', i], message: `is ${x}, not above the level before it (${prev}); list the levels rising, each once.` });
    }
  });
  const keys = Object.keys(params).sort();
  const bot = keys.length ? `${name}:${keys.map((k) => `${k}=${params[k]}`).join(',')}` : name;
  const found = w.levels.map((level, i) => {
    const own: Issue[] = [];
    const e = normalizeEntrant({ name: sweepLevelName({ bot, param: w.param }, level), bot, params: { [w.param]: level } }, i, own, o);
    return { e, own };
  });
  const messages = found.map((f) => f.own.map((x) => x.message).join(' '));
  const shared = messages.every((m) => m !== '' && m === messages[0]);
  if (shared) issues.push(...(found[0]?.own ?? []).map((x) => ({ path: ['sweep', x.path[2] === 'bot' ? 'bot' : 'param'], message: x.message })));
  else found.forEach((f, i) => issues.push(...f.own.map((x) => ({ path: ['sweep', 'levels', i], message: x.message }))));
  if (!rising || messages.some((m) => m !== '')) return undefined;
  return { sweep: { bot, param: w.param, levels: [...w.levels] }, entrants: found.map((f) => f.e) };
}

/** An entrant with params merged into its bot spec and checked by the bot registry. */
function normalizeEntrant(e: RawEntrant, i: number, issues: Issue[], o: SpecOptions & { registeredAsGiven?: boolean }): EntrantSpec {
  const at = (...p: PropertyKey[]): Path => ['entrants', i, ...p];
  let name = e.bot;
  let params: Record<string, string> = {};
  try {
    ({ name, params } = parseBotSpec(e.bot));
  } catch (err) {
    issues.push({ path: at('bot'), message: messageOf(err) });
    return { name: e.name ?? e.bot, bot: e.bot };
  }
  if (isExternalBotSpec(e.bot) && e.params !== undefined) {
    issues.push({ path: at('params'), message: `external bot '${e.bot}' takes no params; pass options on its command line or URL instead.` });
  }
  const merged: Record<string, string> = { ...params };
  for (const [k, v] of Object.entries(e.params ?? {})) {
    const text = typeof v === 'boolean' ? (v ? '1' : '0') : String(v);
    if (!PARAM_KEY.test(k)) issues.push({ path: at('params', k), message: 'a parameter name is letters, digits, _ . and -, starting with a letter or _.' });
    else if (Object.hasOwn(params, k)) issues.push({ path: at('params', k), message: `${k} is also given in bot '${e.bot}'; give it in one place.` });
    else if (text.includes(',') || text !== text.trim()) issues.push({ path: at('params', k), message: 'a parameter value may not contain commas or start or end with spaces.' });
    else merged[k] = text;
  }
  const keys = Object.keys(merged).sort();
  const bot = keys.length ? `${name}:${keys.map((k) => `${k}=${merged[k]}`).join(',')}` : name;
  let registered: string | undefined;
  const bots = o.bots ?? NO_EXTERNAL_BOTS;
  try {
    if (!(o.registeredAsGiven && bot.startsWith('ext:'))) createBot(bot, bots);
    registered = botCatalog().find((b) => b.name === name)?.version ?? registeredBot(bot, bots)?.version;
    const refused = o.submitted ? refusedBot(bot, bots) : undefined;
    if (refused) issues.push({ path: at('bot'), message: refused });
  } catch (err) {
    issues.push({ path: at(e.params && !(err instanceof SalientError && err.code === 'UNKNOWN_BOT') ? 'params' : 'bot'), message: messageOf(err) });
  }
  if (e.version !== undefined && registered !== undefined && e.version !== registered) {
    issues.push({
      path: at('version'),
      message: `the spec pins ${name} version ${e.version}, but this installation has version ${registered}; update the spec (results of different versions are never mixed) or install that version.`,
    });
  }
  const version = e.version ?? registered;
  return { name: e.name ?? bot, bot, ...(version !== undefined ? { version } : {}) };
}

const KIND_NAMES: Readonly<Record<string, string>> = {
  array: 'a list',
  object: 'a mapping',
  record: 'a mapping',
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  null: 'null',
  tuple: 'a list',
};

function zodToIssues(error: z.ZodError): Issue[] {
  const out: Issue[] = [];
  for (const i of error.issues) {
    if (i.code === 'unrecognized_keys') {
      const valid = i.path.length === 0 ? TOP_FIELDS : i.path[0] === 'entrants' ? ENTRANT_FIELDS : i.path[0] === 'stop' ? STOP_FIELDS : i.path[0] === 'sweep' ? SWEEP_FIELDS : [];
      for (const k of i.keys) {
        out.push({ path: [...i.path, k], message: `unknown field '${k}'; remove it or fix its spelling${valid.length ? ` (fields here: ${valid.join(', ')})` : ''}.` });
      }
    } else if (i.code === 'invalid_type' && i.path.length === 0) {
      out.push({ path: i.path, message: 'a tournament spec is a mapping of fields (scenarios, entrants, ...); see examples/tournaments/.' });
    } else if (i.code === 'invalid_type') {
      const received = /received (\w+)$/.exec(i.message)?.[1];
      const what = KIND_NAMES[i.expected] ?? `a value of type ${i.expected}`;
      out.push({ path: i.path, message: received === 'undefined' ? `is required (${what}).` : `must be ${what}${received ? `, not ${KIND_NAMES[received] ?? received}` : ''}.` });
    } else out.push({ path: i.path, message: i.message });
  }
  return out;
}

/** `entrants[2].bot`; the spec itself is `(spec)`. */
function pathText(path: Path): string {
  let s = '';
  for (const p of path) {
    if (typeof p === 'number') s += `[${p}]`;
    else s += /^[A-Za-z_$][\w$]*$/.test(String(p)) ? `${s ? '.' : ''}${String(p)}` : `[${JSON.stringify(String(p))}]`;
  }
  return s || '(spec)';
}

function messageOf(e: unknown): string {
  if (e instanceof SalientError) return e.detail();
  throw e;
}
