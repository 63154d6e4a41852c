/**
 * Sorting ClickHouse failures into the few a user can act on: the store cannot be reached (keep the
 * rows and try later), the credentials are wrong (say which variables to set), anything else (say
 * what the server said, and where).
 */
import { redactSecrets, SalientError } from '@salient/engine';

/** Network errors meaning "nobody answered", as opposed to "the server said no". */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** ClickHouse error codes for a rejected login: 192 unknown user, 193 wrong password, 516 (newer servers). */
const AUTH_CODES = new Set(['192', '193', '516']);

/** True when `e` says the server could not be reached (refused, reset, timed out, name not found). */
export function isUnreachable(e: unknown): boolean {
  for (let cur: unknown = e, depth = 0; cur instanceof Error && depth < 5; cur = cur.cause, depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
    if (/socket hang up|Timeout error|ECONNREFUSED|ECONNRESET/i.test(cur.message)) return true;
  }
  return false;
}

/** True when the server rejected the user name or password. */
export function isAuthFailure(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string' && AUTH_CODES.has(code)) return true;
  return /Wrong password for user|Authentication failed|Unknown user/i.test(e.message);
}

/**
 * The first line of an error's message, without ClickHouse's `e.what()` tail, and without any
 * credentials a URL in it may carry (it is shown to users and logged).
 */
export function reason(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  const first = text.split('\n').find((l) => l.trim() !== '') ?? text;
  return redactSecrets(first.replace(/,\s*e\.what\(\) = .*$/, '').trim());
}

/** Where the server is and who we are, for the messages below. */
export interface ServerAddress {
  url: string;
  username: string;
}

export function unreachableError(where: ServerAddress, e: unknown): SalientError {
  return new SalientError(
    'TELEMETRY_UNREACHABLE',
    `Cannot reach the ClickHouse server at ${where.url} (${reason(e)}). ` +
      'Start it, or fix SALIENT_CLICKHOUSE_URL, or unset SALIENT_CLICKHOUSE_URL to use the embedded store.',
  );
}

export function authError(where: ServerAddress, e: unknown): SalientError {
  return new SalientError(
    'TELEMETRY_AUTH',
    `The ClickHouse server at ${where.url} refused user '${where.username}' (${reason(e)}). ` +
      'Set SALIENT_CLICKHOUSE_USER and SALIENT_CLICKHOUSE_PASSWORD to an account that server accepts.',
  );
}

/**
 * A `SalientError` for a failure talking to a server: unreachable, refused login, or what the server
 * said while doing `what` (e.g. "inserting into salient.events").
 */
export function serverError(where: ServerAddress, what: string, e: unknown): SalientError {
  if (e instanceof SalientError) return e;
  if (isUnreachable(e)) return unreachableError(where, e);
  if (isAuthFailure(e)) return authError(where, e);
  return new SalientError('IO', `ClickHouse at ${where.url} failed while ${what}: ${reason(e)}`);
}
