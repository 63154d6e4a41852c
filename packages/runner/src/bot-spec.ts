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
