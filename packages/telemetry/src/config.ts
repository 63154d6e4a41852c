/**
 * Where telemetry goes, read from the environment: embedded ClickHouse (chdb) over a local data
 * directory by default, a ClickHouse server when `SALIENT_CLICKHOUSE_URL` is set.
 */
import { resolve } from 'node:path';
import { redactSecrets, SalientError } from '@salient/engine';
import { z } from 'zod';

/** Settings shared by both kinds. */
interface CommonConfig {
  /** Where matches that could not be delivered wait, one JSON-lines file per match. */
  spoolDir: string;
  /**
   * Longest wait for one insert into a server before the store counts as unreachable and matches
   * are spooled (`SALIENT_CLICKHOUSE_WRITE_TIMEOUT_MS`; default 10 000).
   */
  writeTimeoutMs?: number;
}

/** Embedded ClickHouse (chdb) over a data directory that this process owns alone. */
export interface EmbeddedConfig extends CommonConfig {
  kind: 'embedded';
  /** Absolute path of the data directory. */
  path: string;
}

/** A ClickHouse server reached over HTTP. */
export interface ServerConfig extends CommonConfig {
  kind: 'server';
  /** Where the server is, without credentials (those are `username` and `password`). */
  url: string;
  username: string;
  password: string;
  /** Database holding Salient's tables; created if missing. */
  database: string;
}

export type TelemetryConfig = EmbeddedConfig | ServerConfig;

/** The database Salient's tables live in, on both kinds. */
export const DEFAULT_DATABASE = 'salient';

const nonEmpty = z.string().trim().min(1, 'must not be empty');
const identifier = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a plain identifier (letters, digits and _, not starting with a digit)');
const httpUrl = z
  .string()
  .trim()
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
    } catch {
      return false;
    }
  }, 'must be an http:// or https:// URL such as http://localhost:8123');

/** Each variable with its schema, so a bad value is reported under its own name. */
const VARIABLES = {
  SALIENT_CLICKHOUSE_URL: httpUrl,
  SALIENT_CLICKHOUSE_USER: nonEmpty,
  SALIENT_CLICKHOUSE_PASSWORD: z.string(),
  SALIENT_CLICKHOUSE_DATABASE: identifier,
  SALIENT_CLICKHOUSE_PATH: nonEmpty,
  SALIENT_SPOOL_DIR: nonEmpty,
  SALIENT_CLICKHOUSE_WRITE_TIMEOUT_MS: z.coerce.number().int('must be a whole number of milliseconds').min(100, 'must be at least 100 (ms)'),
} as const;

type Variable = keyof typeof VARIABLES;

/**
 * Telemetry settings from the environment.
 *
 * - `SALIENT_CLICKHOUSE_URL` set: a server, with `SALIENT_CLICKHOUSE_USER` (default `default`),
 *   `SALIENT_CLICKHOUSE_PASSWORD` (default empty) and `SALIENT_CLICKHOUSE_DATABASE` (default `salient`).
 * - Otherwise embedded, in `SALIENT_CLICKHOUSE_PATH` (default `<cwd>/.salient/clickhouse`).
 * - `SALIENT_SPOOL_DIR` (default `<cwd>/.salient/spool`) either way.
 * - `SALIENT_CLICKHOUSE_WRITE_TIMEOUT_MS` (server only, default 10 000): see `writeTimeoutMs`.
 *
 * Relative paths are taken from `cwd`. Empty variables count as unset.
 * Throws a `BAD_CONFIG` {@link SalientError} naming the variable when a value is invalid.
 */
export function telemetryConfigFromEnv(env: Readonly<Record<string, string | undefined>> = process.env, cwd: string = process.cwd()): TelemetryConfig {
  const read = <V extends Variable>(name: V): z.output<(typeof VARIABLES)[V]> | undefined => {
    const raw = env[name];
    if (raw === undefined || raw === '') return undefined;
    const parsed = VARIABLES[name].safeParse(raw);
    if (!parsed.success) {
      const why = parsed.error.issues.map((i) => i.message).join('; ');
      // The value is shown to help, but never a password, in the variable or inside a URL.
      const shown = name === 'SALIENT_CLICKHOUSE_PASSWORD' ? '(hidden)' : JSON.stringify(redactSecrets(raw));
      throw new SalientError('BAD_CONFIG', `${name}=${shown} is invalid: ${why}. Fix it or unset it.`);
    }
    return parsed.data as z.output<(typeof VARIABLES)[V]>;
  };
  const spoolDir = resolve(cwd, read('SALIENT_SPOOL_DIR') ?? '.salient/spool');
  const url = read('SALIENT_CLICKHOUSE_URL');
  if (url === undefined) {
    return { kind: 'embedded', path: resolve(cwd, read('SALIENT_CLICKHOUSE_PATH') ?? '.salient/clickhouse'), spoolDir };
  }
  const writeTimeoutMs = read('SALIENT_CLICKHOUSE_WRITE_TIMEOUT_MS');
  const split = splitCredentials(url, { username: read('SALIENT_CLICKHOUSE_USER'), password: read('SALIENT_CLICKHOUSE_PASSWORD') }, ENV_NAMES);
  return {
    kind: 'server',
    url: split.url,
    username: split.username ?? 'default',
    password: split.password ?? '',
    database: read('SALIENT_CLICKHOUSE_DATABASE') ?? DEFAULT_DATABASE,
    spoolDir,
    ...(writeTimeoutMs !== undefined ? { writeTimeoutMs } : {}),
  };
}

/** Where each setting came from, for messages. */
export interface CredentialSources {
  url: string;
  username: string;
  password: string;
}

const ENV_NAMES: CredentialSources = { url: 'SALIENT_CLICKHOUSE_URL', username: 'SALIENT_CLICKHOUSE_USER', password: 'SALIENT_CLICKHOUSE_PASSWORD' };

/**
 * A server URL's credentials (`http://user:password@host:8123`, percent-decoded) moved out of it, so
 * the URL that is kept, shown and logged carries none. A user or password also `given` apart must be
 * the same, or it is a `BAD_CONFIG` error naming both sources (and neither password). Trailing
 * slashes are dropped.
 */
export function splitCredentials(
  url: string,
  given: { username?: string | undefined; password?: string | undefined },
  names: CredentialSources = ENV_NAMES,
): { url: string; username?: string; password?: string } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new SalientError('BAD_CONFIG', `${names.url} (${JSON.stringify(redactSecrets(url))}) is not a URL; give one such as http://localhost:8123.`);
  }
  const decode = (part: string, what: string): string => {
    try {
      return decodeURIComponent(part);
    } catch {
      throw new SalientError('BAD_CONFIG', `The ${what} in ${names.url} is not valid percent-encoding; encode special characters as %XX (e.g. @ as %40), or set ${what === 'user name' ? names.username : names.password} instead.`);
    }
  };
  const inUrl = { username: u.username ? decode(u.username, 'user name') : undefined, password: u.password ? decode(u.password, 'password') : undefined };
  u.username = '';
  u.password = '';
  const bare = u.toString().replace(/\/+$/, '');
  if (inUrl.username !== undefined && given.username !== undefined && inUrl.username !== given.username) {
    throw new SalientError(
      'BAD_CONFIG',
      `${names.url} names user '${inUrl.username}' but ${names.username} says '${given.username}'. Give the user in one place only (or the same in both).`,
    );
  }
  if (inUrl.password !== undefined && given.password !== undefined && inUrl.password !== given.password) {
    throw new SalientError(
      'BAD_CONFIG',
      `${names.url} carries a password and ${names.password} a different one (neither is shown). Give the password in one place only (or the same in both).`,
    );
  }
  const username = inUrl.username ?? given.username;
  const password = inUrl.password ?? given.password;
  return { url: bare, ...(username !== undefined ? { username } : {}), ...(password !== undefined ? { password } : {}) };
}

/**
 * `config` with any credentials in its URL moved to `username` and `password` (see
 * {@link splitCredentials}), for configurations built in code rather than read from the environment.
 * There `default` and an empty password count as not given.
 */
export function withoutUrlCredentials<C extends TelemetryConfig>(config: C): C {
  if (config.kind !== 'server') return config;
  const split = splitCredentials(
    config.url,
    { username: config.username === 'default' ? undefined : config.username, password: config.password === '' ? undefined : config.password },
    { url: 'the ClickHouse server URL', username: 'the configured username', password: 'the configured password' },
  );
  return { ...config, url: split.url, username: split.username ?? config.username, password: split.password ?? config.password };
}

/** One line saying where telemetry goes, for logs and the CLI (never shows the password). */
export function describeConfig(config: TelemetryConfig): string {
  if (config.kind === 'embedded') return `embedded ClickHouse in ${config.path}`;
  return `ClickHouse server ${redactSecrets(config.url)} (user ${config.username}, database ${config.database})`;
}
