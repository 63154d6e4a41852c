/**
 * Listening: the API on a host and port with a pino request log (secrets redacted), closed cleanly on
 * SIGINT/SIGTERM by the caller through `close()`.
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { pino, type Logger } from 'pino';
import { buildApp, type ApiOptions } from './app.ts';

/** Headers and fields never written to the log. */
export const REDACT = ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'authorization', 'password', 'token', 'tokens'];

/** The API's request log: JSON lines on `destination` (default stdout), secrets redacted. */
export function createLogger(level = 'info', destination?: NodeJS.WritableStream): Logger {
  return pino({ level, redact: { paths: REDACT, censor: '[redacted]' } }, destination ?? process.stdout);
}

export interface Served {
  app: FastifyInstance;
  /** http://host:port/ as a browser would open it. */
  url: string;
  close(): Promise<void>;
}

/** Build the app and listen on `host:port` (port 0: any free port). */
export async function serve(options: ApiOptions & { host?: string; port?: number }): Promise<Served> {
  const { host = '127.0.0.1', port = 8080, ...rest } = options;
  const app = await buildApp(rest);
  await app.listen({ host, port });
  const address = app.server.address() as AddressInfo;
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return { app, url: `http://${shown}:${address.port}/`, close: () => app.close() };
}
