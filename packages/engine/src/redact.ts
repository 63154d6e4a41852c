/**
 * Keeping secrets out of what is shown or logged. Salient takes credentials inside URLs
 * (`http://user:password@host`, `redis://:password@host`) and clients sometimes put tokens in query
 * strings, and a URL ends up in messages, banners and request logs; these functions take the secrets
 * out of any text on its way there.
 *
 * The rule for query parameters: a parameter is secret when its name contains (in any case) `token`,
 * `secret`, `pass`, `pwd`, `auth`, `key`, `session`, `cookie`, `signature` or `credential`
 * (`?token=`, `access_token`, `api_key`, `apikey`, `password`, `client_secret`, `authorization`,
 * `X-Amz-Signature`...). It errs on hiding too much: a `?monkey=` is hidden as well.
 */

/** What stands in for a secret. */
export const REDACTED = '***';

const SECRET_NAME = /token|secret|pass|pwd|auth|key|session|cookie|signature|credential/i;

/** True when a query parameter (or header, or field) of this name holds a secret. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

// scheme://user:password@ : the password runs to the last @ before the path, as URL parsers read it,
// but never across quotes, backslashes or spaces (so a URL inside JSON or a sentence stays in bounds).
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#@:"'<>\\]*):([^\s/?#"'<>\\]*)@/gi;
const QUERY_PARAM = /([?&;])([^=&;\s#"'<>\\]+)=([^&;\s#"'<>\\]*)/g;
// RFC 6750's b64token characters: "Bearer <token>" in a how-to message is left alone.
const AUTH_SCHEME = /\b(Bearer|Basic)(\s+)[A-Za-z0-9._~+/=-]+/g;

/**
 * `text` with URL passwords, secret query parameters and `Bearer`/`Basic` credentials replaced by
 * `***`; everything else (user names, hosts, paths) kept as it was.
 */
export function redactSecrets(text: string): string {
  return text
    .replace(USERINFO, (_m, scheme: string, user: string, password: string) => `${scheme}${user}${password ? `:${REDACTED}` : ''}@`)
    .replace(QUERY_PARAM, (m, sep: string, name: string) => (isSecretName(safeDecode(name)) ? `${sep}${name}=${REDACTED}` : m))
    .replace(AUTH_SCHEME, `$1$2${REDACTED}`);
}

/** `value` with {@link redactSecrets} applied to every string in it (objects and arrays copied). */
export function redactDeep<T>(value: T): T {
  if (typeof value === 'string') return redactSecrets(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => redactDeep(v)) as T;
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactDeep(v)])) as T;
  }
  return value;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
