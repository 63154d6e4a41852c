/**
 * Where telemetry goes, read from the environment: embedded ClickHouse (chdb) over a local data
 * directory by default, a ClickHouse server when `SALIENT_CLICKHOUSE_URL` is set.
 */
import { resolve } from 'node:path';
import { SalientError } from '@salient/engine';
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
      throw new SalientError('BAD_CONFIG', `${name}=${JSON.stringify(raw)} is invalid: ${why}. Fix it or unset it.`);
    }
    return parsed.data as z.output<(typeof VARIABLES)[V]>;
  };
  const spoolDir = resolve(cwd, read('SALIENT_SPOOL_DIR') ?? '.salient/spool');
  const url = read('SALIENT_CLICKHOUSE_URL');
  if (url === undefined) {
    return { kind: 'embedded', path: resolve(cwd, read('SALIENT_CLICKHOUSE_PATH') ?? '.salient/clickhouse'), spoolDir };
  }
  const writeTimeoutMs = read('SALIENT_CLICKHOUSE_WRITE_TIMEOUT_MS');
  return {
    kind: 'server',
    url: url.replace(/\/+$/, ''),
    username: read('SALIENT_CLICKHOUSE_USER') ?? 'default',
    password: read('SALIENT_CLICKHOUSE_PASSWORD') ?? '',
    database: read('SALIENT_CLICKHOUSE_DATABASE') ?? DEFAULT_DATABASE,
    spoolDir,
    ...(writeTimeoutMs !== undefined ? { writeTimeoutMs } : {}),
  };
}

/** One line saying where telemetry goes, for logs and the CLI (never shows the password). */
export function describeConfig(config: TelemetryConfig): string {
  if (config.kind === 'embedded') return `embedded ClickHouse in ${config.path}`;
  return `ClickHouse server ${config.url} (user ${config.username}, database ${config.database})`;
}
