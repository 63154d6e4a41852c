/**
 * Bot specs as written on the command line and recorded in replays: `name` or
 * `name:key=value,key=value`. Parsing lives here rather than in `@salient/bots` so the runner can hand
 * each bot its parameters without depending on the bot package (`@salient/bots` re-exports it).
 */
import { SalientError } from '@salient/engine';

/** A parsed bot spec. */
export interface BotSpec {
  name: string;
  params: Record<string, string>;
}

/**
 * Prefixes of external bots, whose spec is a command line, a URL or a name from the operator's bots
 * file (`ext:<name>`) rather than `name:params`.
 */
const EXTERNAL_PREFIXES = ['cmd:', 'http://', 'https://', 'ext:'] as const;

/** Whether `spec` names an external bot (`cmd:<command line>`, `http://...`, `https://...`, `ext:<name>`). */
export function isExternalBotSpec(spec: string): boolean {
  const s = spec.trimStart();
  return EXTERNAL_PREFIXES.some((p) => s.startsWith(p));
}

/**
 * Parse `greedy:depth=2,chance=0` into `{ name: 'greedy', params: { depth: '2', chance: '0' } }`.
 * Values stay strings; each bot interprets its own. An external bot's spec (see
 * {@link isExternalBotSpec}) is not split: its name is the whole spec, trimmed, and it has no params.
 * Throws `SalientError('BAD_ARGUMENT')` naming the offending part when the spec is malformed.
 */
export function parseBotSpec(spec: string): BotSpec {
  if (isExternalBotSpec(spec)) return { name: spec.trim(), params: {} };
  const colon = spec.indexOf(':');
  const name = (colon < 0 ? spec : spec.slice(0, colon)).trim();
  if (name === '') throw new SalientError('BAD_ARGUMENT', `Bot spec '${spec}' has no bot name. Write it as name or name:key=value,key=value.`);
  const params: Record<string, string> = {};
  if (colon < 0) return { name, params };
  for (const part of spec.slice(colon + 1).split(',')) {
    if (part.trim() === '') continue;
    const eq = part.indexOf('=');
    const key = eq < 0 ? '' : part.slice(0, eq).trim();
    if (key === '') {
      throw new SalientError('BAD_ARGUMENT', `Bot spec '${spec}': parameter '${part}' is not key=value. Write it as name:key=value,key=value.`);
    }
    if (Object.hasOwn(params, key)) throw new SalientError('BAD_ARGUMENT', `Bot spec '${spec}' gives parameter '${key}' twice.`);
    params[key] = part.slice(eq + 1).trim();
  }
  return { name, params };
}

/** A parameter value as it is kept in an identity: numbers in one spelling (`0.50`, `.5` -> `0.5`). */
function canonicalValue(v: string): string {
  return v !== '' && /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(v) && Number.isFinite(Number(v)) ? String(Number(v)) : v;
}

/**
 * The identity a bot's results are kept, shown and rated under: its name, its parameters in a
 * canonical order and spelling, and its version, as `greedy:chance=0@1` (a bot without parameters is
 * `greedy@1`, as results always named it). `greedy` and `greedy:chance=0` play differently, so they
 * are two entrants, never merged. `reported` is the `name@version` the bot gave; an external bot (or a
 * spec that does not parse) is known by that alone.
 */
export function entrantIdentity(spec: string | undefined, reported: string): string {
  if (spec === undefined || spec.trim() === '' || isExternalBotSpec(spec)) return reported;
  let parsed: BotSpec;
  try {
    parsed = parseBotSpec(spec);
  } catch {
    return reported;
  }
  const at = reported.lastIndexOf('@');
  const name = at > 0 ? reported.slice(0, at) : reported;
  const version = at > 0 ? reported.slice(at) : '';
  const keys = Object.keys(parsed.params).sort();
  if (keys.length === 0) return reported;
  return `${name}:${keys.map((k) => `${k}=${canonicalValue(parsed.params[k] as string)}`).join(',')}${version}`;
}
