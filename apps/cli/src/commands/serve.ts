/**
 * `salient serve`: the dashboard API (and, at /, the web dashboard once built) on the telemetry store
 * named by the environment (embedded ClickHouse under `.salient/clickhouse` by default), until Ctrl-C
 * or SIGTERM. Write tokens come from SALIENT_API_TOKENS only (never from flags, which shells keep).
 */
import type { Command } from 'commander';
import { serve, createLogger } from '@salient/api';
import { SalientError } from '@salient/engine';
import { loadConfiguredBots } from '@salient/bots';
import { openTelemetry } from '@salient/telemetry';
import { commandDescription } from './summaries.ts';

interface ServeFlags {
  host: string;
  port: string;
  redis?: string;
  log: string;
  bots?: string;
}

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description(commandDescription('serve'))
    .option('--host <host>', 'address to listen on (0.0.0.0 for every interface)', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0: any free port)', process.env.SALIENT_API_PORT ?? '8080')
    .option('--redis <url>', 'Redis of the tournament queue, for submit, cancel and live progress (default: SALIENT_REDIS_URL)')
    .option('--log <level>', 'request log level on stdout (info, warn, error, silent)', 'info')
    .option('--bots <file>', "the workers' bots file: submitted specs may use its ext:<name> bots and the cmd:/http: bots it allows, nothing else external (default: SALIENT_BOTS_FILE)")
    .addHelpText('after', '\nWrites (submit, cancel) need SALIENT_API_TOKENS=<token>[,<token>...]; without it they are refused.')
    .action(async (f: ServeFlags) => {
      const port = Number(f.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) {
        throw new SalientError('BAD_ARGUMENT', `--port must be a whole number from 0 to 65535; got '${f.port}'.`);
      }
      const redis = f.redis ?? process.env.SALIENT_REDIS_URL;
      const tokens = (process.env.SALIENT_API_TOKENS ?? '').split(',').map((t) => t.trim()).filter(Boolean);
      const bots = await loadConfiguredBots(f.bots);
      const telemetry = await openTelemetry();
      let served;
      try {
        served = await serve({ telemetry, host: f.host, port, tokens, bots, ...(redis ? { redis } : {}), ...(f.log === 'silent' ? {} : { logger: createLogger(f.log) }) });
      } catch (e) {
        await telemetry.close();
        if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE') {
          throw new SalientError('BAD_ARGUMENT', `Port ${port} on ${f.host} is taken; pick another with --port (0 takes any free one).`);
        }
        throw e;
      }
      process.stderr.write(
        `Salient API on ${served.url} (docs ${served.url}docs, metrics ${served.url}metrics)\n` +
          `Store: ${telemetry.where}. Queue: ${redis ? 'Redis' : 'none (submit and cancel off)'}. Writes: ${tokens.length ? `${tokens.length} token(s)` : 'off (set SALIENT_API_TOKENS)'}.\n` +
          `External bots for submitted specs: ${bots.source ? `${Object.keys(bots.bots).length} registered, ${bots.allow.commands.length} command(s) and ${bots.allow.hosts.length} host(s) allowed (${bots.source})` : 'none (no bots file: built-in bots only)'}.\n` +
          'Ctrl-C stops it.\n',
      );
      let stopping = false;
      const stop = async () => {
        if (stopping) return;
        stopping = true;
        await served.close();
        await telemetry.close();
      };
      process.once('SIGINT', () => void stop());
      process.once('SIGTERM', () => void stop());
    });
}
