/**
 * Redis connections from a URL (`redis://host:6379/0`, `SALIENT_REDIS_URL`). BullMQ's own
 * connections retry forever, which is what a long-running worker wants; a command line that submits
 * or asks for status wants to hear at once that Redis is not there, so it checks first.
 */
import { Redis } from 'ioredis';
import { redactSecrets, SalientError } from '@salient/engine';

/** Connection options for BullMQ classes (workers need `maxRetriesPerRequest: null`). */
export function bullConnection(url: string): { url: string; maxRetriesPerRequest: null } {
  return { url, maxRetriesPerRequest: null };
}

/** Where Redis is, without a password. */
export function describeRedis(url: string): string {
  try {
    const u = new URL(url);
    u.password = '';
    u.username = '';
    return u.toString();
  } catch {
    return '(unparsable URL)';
  }
}

/**
 * A plain client that fails fast: connected and PINGed, or `QUEUE_UNREACHABLE` saying where it looked
 * and what to do. Close it with `quit()`.
 */
export async function connectRedis(url: string, timeoutMs = 3000): Promise<Redis> {
  let client: Redis;
  try {
    client = new Redis(url, { lazyConnect: true, connectTimeout: timeoutMs, maxRetriesPerRequest: 1, retryStrategy: () => null, enableOfflineQueue: false });
  } catch (e) {
    throw new SalientError('QUEUE_UNREACHABLE', `Bad Redis URL '${describeRedis(url)}': ${redactSecrets((e as Error).message)}. Give one like redis://localhost:6379 (--redis or SALIENT_REDIS_URL).`);
  }
  let cause: Error | undefined;
  client.on('error', (e: Error) => (cause ??= e)); // the real reason (ECONNREFUSED...); connect only says "closed"
  try {
    await client.connect();
    await client.ping();
  } catch (e) {
    client.disconnect();
    throw new SalientError(
      'QUEUE_UNREACHABLE',
      `Cannot reach Redis at ${describeRedis(url)}: ${redactSecrets((cause ?? (e as Error)).message).replace(/\.$/, '')}. Start redis-server there, or point --redis / SALIENT_REDIS_URL at one.`,
    );
  }
  return client;
}
