/**
 * The API's request log: pino JSON lines with secrets kept out. Fields that hold credentials are
 * removed by path; a request is logged with its URL's secret query parameters masked (a client may
 * send `?token=...`, refused but still a secret); and every line is passed through `redactSecrets`
 * on its way out, so a password inside a URL in an error message is masked too.
 */
import type { FastifyRequest } from 'fastify';
import { pino, type Logger } from 'pino';
import { redactSecrets } from '@salient/engine';

/** Headers and fields never written to the log. */
export const REDACT = ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'authorization', 'password', 'token', 'tokens'];

/**
 * A request as the log shows it: fastify's usual fields, the URL with secret query parameters masked
 * (see `isSecretName` in @salient/engine for which), and no headers.
 */
export function requestForLog(req: FastifyRequest | Record<string, unknown>): Record<string, unknown> {
  // Anything else logged as `req` keeps its fields (the redact paths still apply), its URL masked.
  if (!('raw' in req)) return typeof req.url === 'string' ? { ...req, url: redactSecrets(req.url) } : req;
  return fastifyRequest(req as FastifyRequest);
}

function fastifyRequest(req: FastifyRequest): Record<string, unknown> {
  return {
    method: req.method,
    url: redactSecrets(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/** The API's request log: JSON lines on `destination` (default stdout), secrets redacted. */
export function createLogger(level = 'info', destination?: NodeJS.WritableStream): Logger {
  return pino(
    {
      level,
      redact: { paths: REDACT, censor: '[redacted]' },
      serializers: { req: requestForLog },
      hooks: { streamWrite: redactSecrets },
    },
    destination ?? process.stdout,
  );
}

/** `logger` with the request serializer above, for loggers not made by {@link createLogger}. */
export function withSafeRequests(logger: Logger): Logger {
  return logger.child({}, { serializers: { req: requestForLog } });
}
