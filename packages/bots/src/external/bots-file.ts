/**
 * The operator's bots file (docs/bot-protocol.md, "Registered bots"): YAML or JSON, named by
 * `SALIENT_BOTS_FILE` or `--bots FILE`. It registers external bots by name, played as `ext:<name>`,
 * and lists the `cmd:` command lines and HTTP hosts that a spec from someone else (the API, `salient
 * tournament submit`) may still use directly:
 *
 * ```yaml
 * bots:
 *   pybot: { command: [python3, random_bot.py], cwd: bots, env: { BOT_LEVEL: "2" }, version: "1" }
 *   remote: { url: "http://10.0.0.5:8765/bot" }
 * allow:
 *   commands: ["python3 examples/bots/random_bot.py"]   # exact cmd: command lines
 *   hosts: ["10.0.0.5:8765"]                            # host:port of http(s):// bots
 *   packs: [packs/my-blitz]                             # pack directories beside the bundled packs
 * ```
 *
 * Why it exists: a `cmd:` spec runs a program on whichever worker plays the match, so anyone who may
 * submit a spec (a write token, Redis access) would otherwise have a shell on every worker. On the
 * queue, a program runs, or a host is called, only when the operator named it here. Relative `cwd`
 * (default: the file's own directory) is taken from the file's directory, so the file and its bots
 * can move together.
 */
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { INPUT_LIMITS, parseStructuredText, SalientError, type PathIssue } from '@salient/engine';
import { splitCommandLine } from './command-line.ts';

/** A bot the operator registered: a program (argv, no shell) or an HTTP endpoint. Plain JSON. */
export type RegisteredBot =
  | {
      /** Program and arguments, run without a shell. */
      command: string[];
      /** Absolute working directory of the program. */
      cwd: string;
      /** Added to the bot's minimal environment (see `botEnvironment`). */
      env: Record<string, string>;
      /** Recorded as the entrant's version; bump it when the bot plays differently. */
      version?: string;
    }
  | { url: string; version?: string };

/**
 * A loaded bots file. Plain JSON, so it can travel to game threads and worker children as it is.
 * `allow.commands` are argv lists (command lines split as `cmd:` splits them); `allow.hosts` are
 * lowercase `host:port`.
 */
export interface ExternalBots {
  /** Absolute path of the file, for messages; absent when no file is configured. */
  source?: string;
  bots: Record<string, RegisteredBot>;
  allow: {
    commands: string[][];
    hosts: string[];
    /** Absolute pack directories a submitted spec may name besides the bundled packs. */
    packs?: string[];
  };
}

/** No bots file: no registered bots, and nothing from elsewhere may run a command or call a host. */
export const NO_EXTERNAL_BOTS: ExternalBots = { bots: {}, allow: { commands: [], hosts: [], packs: [] } };

/** The environment variable naming the bots file (the `--bots` flag wins over it). */
export const BOTS_FILE_ENV = 'SALIENT_BOTS_FILE';

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** `host:port`, the host a name, an IPv4 address or a bracketed IPv6 address. */
const HOST_PORT = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/;

const FIELDS: Readonly<Record<string, readonly string[]>> = {
  top: ['bots', 'allow'],
  bot: ['command', 'url', 'cwd', 'env', 'version'],
  allow: ['commands', 'hosts', 'packs'],
};

const nonEmpty = z.string().trim().min(1, 'must not be empty');
const botSchema = z
  .strictObject({
    command: z.array(z.string().min(1, 'a word must not be empty'), { error: 'must be a list: the program, then its arguments' }).min(1, 'name the program').optional(),
    url: z
      .string()
      .regex(/^https?:\/\/\S+$/, 'must be an http:// or https:// URL, such as http://10.0.0.5:8765/bot')
      .refine((u) => URL.canParse(u), 'is not a valid URL')
      .optional(),
    cwd: nonEmpty.optional(),
    env: z.record(z.string(), z.string({ error: 'must be a string (quote numbers: "1")' })).optional(),
    version: nonEmpty.optional(),
  })
  .superRefine((b, ctx) => {
    if ((b.command === undefined) === (b.url === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'give either command (a list: program, then arguments) or url (http://host:port/path), exactly one' });
    }
    if (b.url !== undefined) {
      for (const k of ['cwd', 'env'] as const) if (b[k] !== undefined) ctx.addIssue({ code: 'custom', path: [k], message: `only a command bot has ${k}; remove it from this url bot` });
    }
    for (const k of Object.keys(b.env ?? {})) {
      if (!ENV_NAME.test(k)) ctx.addIssue({ code: 'custom', path: ['env', k], message: 'is not a variable name (letters, digits and _, not starting with a digit)' });
      // A bot never sees Salient's settings (passwords, tokens), not even by the operator's mistake.
      else if (/^SALIENT_/i.test(k)) ctx.addIssue({ code: 'custom', path: ['env', k], message: 'SALIENT_* variables are never passed to bots; give the bot its own name for this setting' });
    }
  });

const fileSchema = z.strictObject({
  bots: z.record(z.string(), botSchema, { error: 'must be a mapping of bot names to { command, ... } or { url }' }).default({}),
  allow: z
    .strictObject({
      commands: z.array(nonEmpty, { error: 'must be a list of command lines' }).default([]),
      hosts: z.array(z.string().regex(HOST_PORT, 'must be host:port, such as 10.0.0.5:8765 or bots.example.org:443'), { error: 'must be a list of host:port' }).default([]),
      packs: z.array(nonEmpty, { error: 'must be a list of pack directories' }).default([]),
    })
    .default({ commands: [], hosts: [], packs: [] }),
});

/**
 * Parse a bots file's text (YAML, or JSON when its name ends in .json or it starts with `{`, read
 * strictly as every JSON document is). `source` names it in messages;
 * relative `cwd`s are taken from `baseDir`. Throws `BAD_CONFIG` listing every problem by path.
 */
export function parseBotsFile(text: string, source: string, baseDir: string): ExternalBots {
  const bad = (issues: PathIssue[]): never => {
    const n = issues.length;
    throw new SalientError(
      'BAD_CONFIG',
      `${source}: invalid bots file (${n} problem${n === 1 ? '' : 's'}); fix ${n === 1 ? 'it' : 'them'} (the format is in docs/bot-protocol.md, "Registered bots").`,
      issues,
    );
  };
  // Read as every document from outside is (the format by its name or first character; JSON strictly).
  const doc = parseStructuredText(text, source, { limit: INPUT_LIMITS.config, code: 'BAD_CONFIG' });
  const raw: unknown = doc.raw ?? {};
  const issues: PathIssue[] = [];
  const add = (path: readonly PropertyKey[], message: string) => {
    const at = doc.locate(path);
    issues.push({ path: pathText(path), message: `${message}${at ? ` (line ${at.line}, column ${at.column})` : ''}` });
  };
  // Names first, so a bad name is reported with everything else.
  const rawBots = (raw as { bots?: unknown } | null)?.bots;
  if (rawBots && typeof rawBots === 'object' && !Array.isArray(rawBots)) {
    for (const name of Object.keys(rawBots)) {
      if (!NAME.test(name)) add(['bots', name], 'a bot name is letters, digits, _ . and -, starting with a letter or digit, at most 64 characters');
    }
  }
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success) {
    for (const i of parsed.error.issues) {
      if (i.code === 'unrecognized_keys') {
        const here = i.path.length === 0 ? FIELDS.top : i.path[0] === 'allow' ? FIELDS.allow : FIELDS.bot;
        for (const k of i.keys) add([...i.path, k], `unknown field '${k}'; remove it or fix its spelling (fields here: ${here?.join(', ')})`);
      } else if (i.code === 'invalid_type' && i.path.length === 0) add([], 'a bots file is a mapping with bots: and allow: (see docs/bot-protocol.md)');
      else if (i.code === 'invalid_type' && i.expected === 'string') add(i.path, 'must be a string (quote numbers: "1")');
      else add(i.path, i.message);
    }
    return bad(issues);
  }
  const f = parsed.data;
  const bots: Record<string, RegisteredBot> = {};
  for (const [name, b] of Object.entries(f.bots)) {
    const version = b.version !== undefined ? { version: b.version } : {};
    if (b.url !== undefined) bots[name] = { url: b.url, ...version };
    else if (b.command) {
      const cwd = b.cwd === undefined ? baseDir : isAbsolute(b.cwd) ? b.cwd : resolve(baseDir, b.cwd);
      bots[name] = { command: [...b.command], cwd, env: { ...(b.env ?? {}) }, ...version };
    }
  }
  const commands: string[][] = [];
  f.allow.commands.forEach((line, i) => {
    try {
      commands.push(splitCommandLine(line.replace(/^cmd:/, '')));
    } catch (e) {
      add(['allow', 'commands', i], e instanceof SalientError ? e.message : String(e));
    }
  });
  const hosts = f.allow.hosts.map((h) => h.toLowerCase());
  const packs = f.allow.packs.map((d) => (isAbsolute(d) ? resolve(d) : resolve(baseDir, d)));
  if (issues.length) return bad(issues);
  return { source, bots, allow: { commands, hosts, packs } };
}

/** Read and parse the bots file at `path` (relative to the working directory); `IO` if unreadable. */
export async function loadBotsFile(path: string): Promise<ExternalBots> {
  const abs = resolve(path);
  let text: string;
  try {
    text = await readFile(abs, 'utf8');
  } catch (e) {
    throw new SalientError(
      'BAD_CONFIG',
      `Cannot read the bots file ${abs} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}), named by ${BOTS_FILE_ENV} or --bots. Check the path, or unset it to allow only the built-in bots.`,
    );
  }
  return parseBotsFile(text, abs, dirname(abs));
}

/** The bots file `flag` names, else the one `SALIENT_BOTS_FILE` names, else none (`NO_EXTERNAL_BOTS`). */
export async function loadConfiguredBots(flag?: string, env: Readonly<Record<string, string | undefined>> = process.env): Promise<ExternalBots> {
  const path = flag ?? env[BOTS_FILE_ENV];
  return path !== undefined && path.trim() !== '' ? loadBotsFile(path) : NO_EXTERNAL_BOTS;
}

/** The registered bot an `ext:<name>` spec names, or undefined (not `ext:`, or not registered). */
export function registeredBot(spec: string, external: ExternalBots): RegisteredBot | undefined {
  const s = spec.trim();
  if (!s.startsWith('ext:')) return undefined;
  const name = s.slice(4).trim();
  return Object.hasOwn(external.bots, name) ? external.bots[name] : undefined;
}

/** `host:port` of an http(s) URL, the port filled in when the URL leaves it out. */
function hostPort(url: URL): string {
  return `${url.hostname.toLowerCase()}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
}

const where = (external: ExternalBots) => (external.source ? `the bots file ${external.source}` : `a bots file (none is configured: set ${BOTS_FILE_ENV} or pass --bots FILE)`);

/**
 * Why a spec written by someone other than the operator (sent through the API or `tournament
 * submit`, or found on the queue) may not use bot `spec`, or undefined when it may: a built-in bot,
 * a registered `ext:` name, or a `cmd:` command line or `http(s)://` host that `external.allow` lists
 * exactly. The reason says what the operator can do about it.
 */
export function refusedBot(spec: string, external: ExternalBots): string | undefined {
  const s = spec.trim();
  if (s.startsWith('ext:')) {
    if (registeredBot(s, external)) return undefined;
    const names = Object.keys(external.bots);
    return `${s} is not a registered bot: ${names.length ? `${where(external)} registers ${names.map((n) => `ext:${n}`).join(', ')}` : `${where(external)} registers no bots`}.`;
  }
  if (s.startsWith('cmd:')) {
    let argv: string[];
    try {
      argv = splitCommandLine(s.slice(4));
    } catch (e) {
      return e instanceof SalientError ? e.message : String(e);
    }
    const key = JSON.stringify(argv);
    if (external.allow.commands.some((c) => JSON.stringify(c) === key)) return undefined;
    return (
      `${s} runs a command on whichever worker plays it, and a spec sent to the queue may run only commands the operator allows. ` +
      `The operator must register the bot in ${where(external)}, e.g. bots: { my-bot: { command: ${JSON.stringify(argv)} } }, and the spec then names it ext:my-bot; ` +
      `or list this exact command line under allow.commands. See docs/bot-protocol.md, "Registered bots".`
    );
  }
  if (s.startsWith('http://') || s.startsWith('https://')) {
    let url: URL;
    try {
      url = new URL(s);
    } catch {
      return `'${s}' is not a valid URL. Write it as http://host:port/path.`;
    }
    const host = hostPort(url);
    if (external.allow.hosts.includes(host)) return undefined;
    return (
      `${s} calls ${host} from whichever worker plays it, and a spec sent to the queue may call only hosts the operator allows. ` +
      `The operator must register the bot in ${where(external)}, e.g. bots: { my-bot: { url: "${s}" } }, and the spec then names it ext:my-bot; ` +
      `or list ${host} under allow.hosts. See docs/bot-protocol.md, "Registered bots".`
    );
  }
  return undefined;
}

/**
 * Why a spec written by someone other than the operator may not play on pack `ref`, or undefined
 * when it may: one of the game's bundled packs (`bundled`), or a directory `external.allow.packs`
 * lists. A pack directory is read on whichever machine plans or plays the spec, so a submitter may
 * not point one at any directory there.
 */
export function refusedPack(ref: string, bundled: readonly string[], external: ExternalBots): string | undefined {
  if (bundled.includes(ref)) return undefined;
  const dir = resolve(ref);
  if ((external.allow.packs ?? []).includes(dir)) return undefined;
  return (
    `pack '${ref}' is a directory on the machine that plays the spec, and a spec sent to the queue may name only the bundled packs (${bundled.join(', ') || 'none'}) ` +
    `or a pack directory the operator lists under allow.packs in ${where(external)}. See docs/bot-protocol.md, "Registered bots".`
  );
}

/** `bots.pybot.env.X`, `allow.commands[0]`; the file itself is `(file)`. */
function pathText(path: readonly PropertyKey[]): string {
  let s = '';
  for (const p of path) {
    if (typeof p === 'number') s += `[${p}]`;
    else s += /^[A-Za-z_$][\w$-]*$/.test(String(p)) ? `${s ? '.' : ''}${String(p)}` : `[${JSON.stringify(String(p))}]`;
  }
  return s || '(file)';
}
