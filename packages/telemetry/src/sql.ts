/**
 * Writing SQL text safely. ClickHouse 18.16 has no query parameters (`{name:Type}` is refused as an
 * "Unknown setting param_name"), so values are written as escaped literals, and every value that
 * reaches SQL text goes through one of these.
 */
import type { ClickHouseClient } from '@clickhouse/client';

/** A string literal: backslash and quote escaped, control characters as escapes. */
export function str(value: string): string {
  let out = "'";
  for (const ch of value) {
    switch (ch) {
      case '\\':
        out += '\\\\';
        break;
      case "'":
        out += "\\'";
        break;
      case '\n':
        out += '\\n';
        break;
      case '\r':
        out += '\\r';
        break;
      case '\t':
        out += '\\t';
        break;
      case '\0':
        out += '\\0';
        break;
      default:
        out += ch;
    }
  }
  return out + "'";
}

/** A finite number literal; anything else is a programming error. */
export function num(value: number): string {
  if (!Number.isFinite(value)) throw new TypeError(`Not a finite number for SQL: ${value}`);
  return String(value);
}

/** An identifier (database, table, column). Only plain names are allowed, so no quoting is needed. */
export function ident(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new TypeError(`Not a plain SQL identifier: ${JSON.stringify(name)}`);
  return name;
}

/** Rows of a query as plain objects (JSONEachRow). 64-bit integers arrive as strings from a server. */
export async function selectRows<T = Record<string, unknown>>(client: ClickHouseClient, query: string): Promise<T[]> {
  const rs = await client.query({ query, format: 'JSONEachRow' });
  return rs.json<T>();
}
