/**
 * Listening: the API on a host and port with a pino request log (secrets redacted), closed cleanly on
 * SIGINT/SIGTERM by the caller through `close()`.
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp, type ApiOptions } from './app.ts';

export { createLogger, REDACT } from './log.ts';

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
