/**
 * The dashboard API: `buildApp` makes the fastify instance (nothing listens; tests use `inject`),
 * `server.ts` listens.
 *
 * - Reads under /api: win rates by scenario and side with 95% intervals, bot ratings, game lengths, per-impulse
 *   curves, matches (paged), one match with its impulses and events, its replay, tournaments with
 *   standings and, when a queue is configured, live progress. Every read takes the same filters.
 * - Writes (submit, cancel a tournament) need a bearer token from `tokens`; with none configured they
 *   are refused (403), never open. They need a Redis queue (`redis`) for workers to take matches from.
 * - /health (ClickHouse and Redis reachability), /metrics (Prometheus), /docs (OpenAPI and its UI).
 * - Errors are JSON `{ error, message, issues?, requestId? }`: what was wrong, where, what to do.
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import bearerAuth from '@fastify/bearer-auth';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import fastifyStatic from '@fastify/static';
import swaggerUi from '@fastify/swagger-ui';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from '@fastify/type-provider-zod';
import type { Logger } from 'pino';
import { MAX_INPUT_DEPTH, parseJsonText, redactSecrets, SalientError, type ErrorCode } from '@salient/engine';
import type { Telemetry, TelemetryFilter, WinRateRow } from '@salient/telemetry';
import { parseTournamentSpec, planTournament, tournamentRecord, type ExternalBots } from '@salient/scheduler';
import { cancelTournament, connectRedis, describeRedis, readSpools, retryTournament, submitTournament, type WorkerSpool } from '@salient/scheduler/bullmq';
import { listTournaments, planCache, tournamentOverview, type TournamentOverview } from '@salient/scheduler/overview';
import { listGames } from '@salient/catalog';
import { boardCache, BOARD_CACHE_BYTES } from './board-cache.ts';
import { wilson } from '@salient/stats';
import { apiMetrics } from './metrics.ts';
import { withSafeRequests } from './log.ts';
import { ratingsCache, versionedCache } from './ratings.ts';
import { balanceReport } from './balance.ts';
import { sweepReport } from './sweep.ts';
import { landTopology, plotBundle, vizBundle, type VendorFile } from './vendor.ts';
import {
  balanceReply,
  sweepQuery,
  sweepReply,
  boardReply,
  cancelReply,
  curvesReply,
  errorReply,
  filterQuery,
  gamesReply,
  healthReply,
  lengthsReply,
  matchIdParams,
  matchesReply,
  matchReply,
  pageQuery,
  ratingsReply,
  replayReply,
  retryReply,
  submitBody,
  submitReply,
  tournamentIdParams,
  tournamentReply,
  tournamentsReply,
  winRatesReply,
  type FilterQuery,
} from './schemas.ts';

/** The web dashboard's files. */
export const WEB_ROOT = fileURLToPath(new URL('../web/', import.meta.url));

export interface ApiOptions {
  /** The store the reads come from. The caller opens and closes it. */
  telemetry: Telemetry;
  /** Bearer tokens allowed to write. None: writes are refused. */
  tokens?: readonly string[];
  /** Redis URL of the tournament queue (submit, cancel, live progress, /health). */
  redis?: string;
  /**
   * The operator's bots file: submitted specs may name its `ext:<name>` bots, and use `cmd:` or
   * `http(s)://` bots only as far as its `allow` lists them (default: none, so only built-in bots).
   */
  bots?: ExternalBots;
  /**
   * A pino logger for requests (use `createLogger`, which keeps secrets out of every line; any other
   * logger gets at least the request URLs with secret query parameters masked); false or absent: no
   * request log.
   */
  logger?: Logger | false;
  /** Largest request body in bytes (default 256 KiB). */
  bodyLimit?: number;
  /** Writes allowed per client per window (default 10 a minute). */
  writeRateLimit?: { max: number; timeWindowMs: number };
  /**
   * Failed logins (write requests refused with 401: no, malformed or wrong bearer token) allowed per
   * client address per window (default 10 a minute). Past it, every write from that address is a 429
   * with Retry-After until the window that began with its first failure ends, whatever token it sends.
   */
  failedLoginLimit?: { max: number; timeWindowMs: number };
  /** Include prom-client's process metrics in /metrics (default true). */
  processMetrics?: boolean;
  /**
   * A local tournament whose `running` record has not been renewed (its runner renews it every 30 s)
   * and that has recorded no match for this long is reported `stalled`: its runner was killed or hung
   * (default 120 000 ms).
   */
  stalledAfterMs?: number;
  /**
   * Bytes of drawn boards (`/api/matches/:id/board`, a megabyte or so for a long game) kept in memory
   * so a replay opened again is not re-run (default 64 MiB; 0 keeps none).
   */
  boardCacheBytes?: number;
}

const STATUS: Partial<Record<ErrorCode, number>> = {
  BAD_ARGUMENT: 400,
  BAD_SPEC: 400,
  BAD_QUERY: 400,
  BAD_OPTION: 400,
  UNKNOWN_GAME: 400,
  UNKNOWN_SCENARIO: 400,
  UNKNOWN_PACK: 400,
  UNKNOWN_BOT: 400,
  UNKNOWN_SEAT: 400,
  BAD_SEATS: 400,
  UNKNOWN_TOURNAMENT: 404,
  REPLAY_MISMATCH: 409,
  // A stored replay this server cannot re-run (another rules version, an unknown bot or field).
  BAD_REPLAY: 409,
  TELEMETRY_UNREACHABLE: 503,
  TELEMETRY_AUTH: 503,
  TELEMETRY_LOCKED: 503,
  QUEUE_UNREACHABLE: 503,
};

/** A `TelemetryFilter` from validated query parameters (absent fields left out). */
function toFilter(q: FilterQuery): TelemetryFilter {
  const f: TelemetryFilter = {};
  for (const k of ['game', 'scenario', 'pack', 'rulesVersion', 'bot', 'tournament'] as const) if (q[k] !== undefined) f[k] = q[k];
  if (q.from !== undefined) f.from = q.from;
  if (q.to !== undefined) f.to = q.to;
  return f;
}

/** Win-rate rows with their interval, and the same summed over bots by scenario and side. */
function withIntervals(rows: readonly WinRateRow[]) {
  const bots = rows.map((r) => ({ ...r, interval: wilson(r.wins, r.games) }));
  const bySide = new Map<string, Omit<WinRateRow, 'bot' | 'winRate'>>();
  for (const r of rows) {
    const k = JSON.stringify([r.game, r.scenario, r.packId, r.packHash, r.rulesVersion, r.side]);
    const s = bySide.get(k);
    if (s) {
      s.games += r.games;
      s.wins += r.wins;
      s.losses += r.losses;
      s.draws += r.draws;
    } else {
      const { bot: _b, winRate: _w, ...rest } = r;
      bySide.set(k, { ...rest });
    }
  }
  const sides = [...bySide.values()].map((s) => ({ ...s, winRate: s.games ? s.wins / s.games : 0, interval: wilson(s.wins, s.games) }));
  return { sides, bots };
}

export async function buildApp(o: ApiOptions): Promise<FastifyInstance> {
  const tokens = (o.tokens ?? []).filter((t) => t.length > 0);
  /** Ratings per filter, remembered until its matches change (see ratingsCache). */
  const rated = ratingsCache();
  /** Balance reports per filter, the same way. */
  const balance = versionedCache((t, f) => balanceReport(t, f, rated));
  /** Boards drawn, kept until the cache's bound pushes them out (board-cache.ts). */
  const boards = boardCache(o.telemetry, o.boardCacheBytes ?? BOARD_CACHE_BYTES, (r) => metrics.boardLookup(r));
  const bodyLimit = o.bodyLimit ?? 256 * 1024;
  const app = Fastify({
    ...(o.logger ? { loggerInstance: withSafeRequests(o.logger) as unknown as FastifyBaseLogger } : {}),
    bodyLimit,
    // A client's X-Request-Id is kept when it looks like an id (so logs can be followed across
    // services); anything else gets a fresh one.
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID();
    },
  }).withTypeProvider<ZodTypeProvider>();
  // JSON bodies go through the same strict parser as every JSON file Salient reads (trailing commas,
  // duplicate names and __proto__ refused, errors by line and column, nesting capped), not through
  // fastify's own: one parser per format on every entry point.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    try {
      // fastify has already refused a body over bodyLimit (413) before reading it.
      done(null, parseJsonText(body as string, 'the request body', 'BAD_ARGUMENT', { what: 'a request body', maxBytes: bodyLimit, maxDepth: MAX_INPUT_DEPTH }));
    } catch (e) {
      done(e as Error, undefined);
    }
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  /**
   * What every tournament read shares with `salient tournament list` and `status` (one state, its SPRT
   * and results from the same outcomes): the store, the queue, and the plans of stored specs.
   */
  const overviews = {
    telemetry: o.telemetry,
    ...(o.redis !== undefined ? { redis: o.redis } : {}),
    plans: planCache(),
    ...(o.stalledAfterMs !== undefined ? { stalledAfterMs: o.stalledAfterMs } : {}),
  };

  const metrics = apiMetrics(app, o.processMetrics ?? true, () => boards.bytes());
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  app.setErrorHandler((err: FastifyError, request, reply) => {
    const requestId = String(request.id);
    if (hasZodFastifySchemaValidationErrors(err)) {
      const where = err.validationContext ?? 'request';
      const issues = err.validation.map((v) => ({
        path: [where, ...String(v.instancePath ?? '').split('/').filter(Boolean)].join('.'),
        message: v.message ?? 'is not valid',
      }));
      return reply.code(400).send({
        error: 'BAD_REQUEST',
        message: `The ${where} is not valid: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}. See /docs for what each endpoint takes.`,
        issues,
        requestId,
      });
    }
    if (err instanceof SalientError) {
      const status = STATUS[err.code] ?? 500;
      if (status >= 500) request.log.error({ err }, 'request failed');
      return reply.code(status).send({
        error: err.code,
        message: err.message,
        ...(err.issues.length ? { issues: err.issues.map((i) => ({ path: i.path, message: i.message })) } : {}),
        requestId,
      });
    }
    if (!isResponseSerializationError(err) && typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
      return reply.code(err.statusCode).send({ error: err.code ?? 'BAD_REQUEST', message: err.message, requestId });
    }
    request.log.error({ err }, 'request failed');
    return reply.code(500).send({ error: 'INTERNAL', message: 'The server failed to answer this request; its log has the details under this request id.', requestId });
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({ error: 'NOT_FOUND', message: `No route ${request.method} ${request.url.split('?')[0]}; /docs lists the API.`, requestId: String(request.id) }),
  );

  await app.register(swagger, {
    openapi: {
      info: { title: 'Salient dashboard API', version: '1', description: 'Win rates, game lengths, per-impulse curves, matches, replays and tournaments from the Salient telemetry store.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  await app.register(rateLimit, { global: false });
  // The web dashboard: static files from ../web, all from this server (no CDN).
  await app.register(fastifyStatic, { root: WEB_ROOT, prefix: '/', index: ['index.html'], schemaHide: true, cacheControl: true, maxAge: 0 });

  // The dashboard's map and chart libraries and land outlines (vendor.ts), from this server too;
  // gzipped for a browser that accepts it.
  const vendor = (file: () => Promise<VendorFile>) => async (req: FastifyRequest, reply: FastifyReply) => {
    const f = await file();
    reply.header('etag', f.etag).header('cache-control', 'public, max-age=3600').header('vary', 'accept-encoding');
    if (req.headers['if-none-match'] === f.etag) return reply.code(304).send();
    if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) return reply.type(f.type).header('content-encoding', 'gzip').send(f.gzip);
    return reply.type(f.type).send(f.body);
  };
  app.get('/vendor/viz.js', { schema: { hide: true } }, vendor(vizBundle));
  app.get('/vendor/plot.js', { schema: { hide: true } }, vendor(plotBundle));
  // Built while the server waits for its first visitor, not while the first page waits for them
  // (esbuild works in its own process); a failed build is tried again on request.
  app.addHook('onListen', (done) => {
    for (const b of [vizBundle, plotBundle]) b().catch(() => undefined);
    done();
  });
  app.get('/vendor/land-50m.json', { schema: { hide: true } }, vendor(() => landTopology('50m')));
  app.get('/vendor/land-110m.json', { schema: { hide: true } }, vendor(() => landTopology('110m')));

  app.get('/health', { schema: { tags: ['service'], summary: 'Whether the store and the queue answer', response: { 200: healthReply, 503: healthReply } } }, async (_req, reply) => {
    const clickhouse: { ok: boolean; where: string; error?: string } = { ok: true, where: redactSecrets(o.telemetry.where) };
    try {
      await o.telemetry.ping();
    } catch (e) {
      clickhouse.ok = false;
      // /health answers anyone: whatever the client library said, no credentials in it.
      clickhouse.error = redactSecrets((e as Error).message);
    }
    const redis: { configured: boolean; ok?: boolean; where?: string; error?: string } = { configured: o.redis !== undefined };
    let spool: { pending: number; workers: WorkerSpool[] } | undefined;
    if (o.redis !== undefined) {
      redis.where = describeRedis(o.redis);
      try {
        const client = await connectRedis(o.redis, 1000);
        try {
          await client.ping();
          redis.ok = true;
          const workers = await readSpools(client);
          spool = { pending: workers.reduce((n, w) => n + w.pending, 0), workers };
        } finally {
          client.disconnect();
        }
      } catch (e) {
        redis.ok = false;
        redis.error = redactSecrets((e as Error).message);
      }
    }
    const ok = clickhouse.ok && redis.ok !== false;
    return reply.code(ok ? 200 : 503).send({ status: ok ? 'ok' : 'degraded', clickhouse, redis, ...(spool ? { spool } : {}) });
  });

  app.get('/metrics', { schema: { tags: ['service'], summary: 'Prometheus metrics', hide: false } }, async (_req, reply) => {
    reply.header('content-type', metrics.registry.contentType);
    return metrics.registry.metrics();
  });

  const reads = { 400: errorReply, 503: errorReply };
  app.get(
    '/api/win-rates',
    { schema: { tags: ['statistics'], summary: 'Win rates by scenario and side, and by bot, with 95% Wilson intervals', querystring: filterQuery, response: { 200: winRatesReply, ...reads } } },
    async (req) => withIntervals(await o.telemetry.winRates(toFilter(req.query))),
  );
  app.get(
    '/api/ratings',
    {
      schema: {
        tags: ['statistics'],
        summary: 'Bot ratings: Bradley–Terry strength net of side (with each side’s win probability between equal bots) and openskill',
        querystring: filterQuery,
        response: { 200: ratingsReply, ...reads },
      },
    },
    async (req) => rated(o.telemetry, toFilter(req.query)),
  );
  app.get(
    '/api/balance',
    {
      schema: {
        tags: ['statistics'],
        summary: 'Balance by scenario: win rates by side as played and net of bot strength, lengths, who moves first, which victory conditions decide games',
        querystring: filterQuery,
        response: { 200: balanceReply, ...reads },
      },
    },
    async (req) => {
      const r = await balance(o.telemetry, toFilter(req.query));
      return { ...r, filter: { ...req.query } };
    },
  );
  app.get(
    '/api/balance/sweep',
    {
      schema: {
        tags: ['statistics'],
        summary: 'Balance under rising bot strength: per strength-sweep tournament, scenario and level, each side’s win rate with its interval, and whether it has stopped moving',
        querystring: sweepQuery,
        response: { 200: sweepReply, ...reads },
      },
    },
    async (req) => {
      const { margin, ...filter } = req.query;
      const r = await sweepReport(o.telemetry, { ...filter, ...(margin !== undefined ? { margin } : {}) });
      return { ...r, filter: { ...req.query } };
    },
  );
  app.get(
    '/api/lengths',
    { schema: { tags: ['statistics'], summary: 'Game lengths (turns, impulses, decisions) by scenario: mean, quantiles, histogram', querystring: filterQuery, response: { 200: lengthsReply, ...reads } } },
    async (req) => ({ lengths: await o.telemetry.gameLengths(toFilter(req.query)) }),
  );
  app.get(
    '/api/games',
    { schema: { tags: ['statistics'], summary: 'The games this server knows, and what their scores and margins count', response: { 200: gamesReply } } },
    async () => ({
      games: listGames(true).map((g) => ({ id: g.id, name: g.name, rulesVersion: g.rulesVersion, ...(g.measures ? { measures: g.measures } : {}) })),
    }),
  );
  app.get(
    '/api/curves',
    { schema: { tags: ['statistics'], summary: 'Mean score, losses and control by power at each turn and impulse', querystring: filterQuery, response: { 200: curvesReply, ...reads } } },
    async (req) => ({ curves: await o.telemetry.impulseCurves(toFilter(req.query)) }),
  );
  app.get(
    '/api/matches',
    { schema: { tags: ['matches'], summary: 'Stored matches, newest first, a page at a time', querystring: pageQuery, response: { 200: matchesReply, ...reads } }, serializerCompiler: plainJson },
    async (req) => {
      const { limit, offset, after, ...filter } = req.query;
      const { total, matches, next } = await o.telemetry.matches(toFilter(filter), { limit, offset, ...(after !== undefined ? { after } : {}) });
      // In the reply schema's order: the reply is written as it is (see plainJson).
      return { total, limit, offset, matches, ...(next !== undefined ? { next } : {}) };
    },
  );
  app.get(
    '/api/matches/:id',
    { schema: { tags: ['matches'], summary: 'One match with its impulses and events', params: matchIdParams, response: { 200: matchReply, 404: errorReply, ...reads } }, serializerCompiler: plainJson },
    async (req, reply) => {
      // One query: the summary and the rows together (migration 10), not one query each.
      const detail = await o.telemetry.matchDetail(req.params.id);
      if (!detail) return reply.code(404).send(noMatch(req.params.id, String(req.id)));
      return detail;
    },
  );
  app.get(
    '/api/matches/:id/replay',
    { schema: { tags: ['matches'], summary: "One match's replay (seed, seats, every choice), to re-run or step through", params: matchIdParams, response: { 200: replayReply, 404: errorReply, ...reads } } },
    async (req, reply) => {
      const replay = await o.telemetry.replay(req.params.id);
      if (!replay) return reply.code(404).send(noMatch(req.params.id, String(req.id)));
      return replay;
    },
  );
  app.get(
    '/api/matches/:id/board',
    {
      schema: {
        tags: ['matches'],
        summary: 'One match on its map: areas at their positions, links, and control, units and events at the start and after each impulse (the replay re-run here)',
        params: matchIdParams,
        response: { 200: boardReply, 404: errorReply, 409: errorReply, ...reads },
      },
    },
    async (req, reply) => {
      const board = await boards.board(req.params.id);
      if (!board) return reply.code(404).send(noMatch(req.params.id, String(req.id)));
      // The browser keeps the board and asks again with its ETag: unchanged, it gets a 304 and no body.
      // Already JSON text (board-cache.ts): sent as it is, past the serializer (api.test checks it against the schema).
      const raw = reply as unknown as FastifyReply;
      raw.header('etag', board.etag).header('cache-control', 'private, no-cache').header('vary', 'accept-encoding');
      if (req.headers['if-none-match'] === board.etag) return raw.code(304).send();
      raw.type('application/json; charset=utf-8');
      if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) return raw.header('content-encoding', 'gzip').send(board.gzip);
      return raw.send(board.body);
    },
  );
  app.get(
    '/api/tournaments',
    {
      schema: {
        tags: ['tournaments'],
        summary: 'Tournaments of the store and (with a queue) of the queue, latest activity first, each with its one state and why',
        querystring: filterQuery,
        response: { 200: tournamentsReply, ...reads },
      },
    },
    async (req) => ({ tournaments: (await listTournaments({ ...overviews, filter: toFilter(req.query) })).map(listRow) }),
  );
  app.get(
    '/api/tournaments/:id',
    {
      schema: {
        tags: ['tournaments'],
        summary:
          'One tournament: its state and why, progress, SPRT, results by entrant (pairings with Elo, LOS and draw ratio, cross-table, by scenario and side) as `salient tournament status` gives them, and standings by bot and side from the store',
        params: tournamentIdParams,
        response: { 200: tournamentReply, 404: errorReply, ...reads },
      },
    },
    async (req, reply) => {
      const id = req.params.id;
      let v: TournamentOverview;
      try {
        v = await tournamentOverview(id, { ...overviews, detail: true });
      } catch (e) {
        if (!(e instanceof SalientError && e.code === 'UNKNOWN_TOURNAMENT')) throw e;
        return reply.code(404).send({ error: 'UNKNOWN_TOURNAMENT', message: `No tournament '${id}' in the store${o.redis ? ' or on the queue' : ''}; /api/tournaments lists them.`, requestId: String(req.id) });
      }
      const c = v.counts;
      const progress =
        v.source === 'queue'
          ? { source: 'queue' as const, state: v.state, total: c.planned, waiting: c.waiting, active: c.running, completed: c.done, failed: c.failed, ...(c.unplayed > 0 ? { unplayed: c.unplayed } : {}) }
          : v.summary?.planned !== undefined && v.executor !== 'unknown'
            ? // From the store an engine error is what failed; once the run ended, what it did not play is not waiting.
              { source: 'store' as const, state: v.state, total: c.planned, waiting: c.waiting, active: 0, completed: c.done - c.errors, failed: c.errors, ...(c.unplayed > 0 ? { unplayed: c.unplayed } : {}) }
            : undefined;
      const rates = withIntervals(v.summary ? await o.telemetry.winRates({ tournament: id }) : []);
      const byBot = new Map<string, { bot: string; games: number; wins: number; losses: number; draws: number }>();
      for (const r of rates.bots) {
        const b = byBot.get(r.bot) ?? { bot: r.bot, games: 0, wins: 0, losses: 0, draws: 0 };
        b.games += r.games;
        b.wins += r.wins;
        b.losses += r.losses;
        b.draws += r.draws;
        byBot.set(r.bot, b);
      }
      const standings = [...byBot.values()]
        .map((b) => ({ ...b, score: b.wins + b.draws / 2, winRate: b.games ? b.wins / b.games : 0, interval: wilson(b.wins, b.games) }))
        .sort((a, b) => b.score / (b.games || 1) - a.score / (a.games || 1) || a.bot.localeCompare(b.bot));
      return {
        tournament: listRow(v),
        state: v.state,
        reason: v.reason,
        counts: c,
        standings,
        sides: rates.bots,
        ...(progress ? { progress } : {}),
        ...(v.sprt ? { sprt: finite({ ...v.sprt, pentanomial: [...v.sprt.pentanomial] }) } : {}),
        ...(v.results ? { results: finite(v.results) } : {}),
        notes: v.notes,
      };
    },
  );

  // Writes: their own context, so the token check covers them and nothing else.
  const rate = o.writeRateLimit ?? { max: 10, timeWindowMs: 60_000 };
  await app.register(async (scope) => {
    const w = scope.withTypeProvider<ZodTypeProvider>();
    if (tokens.length === 0) {
      w.addHook('onRequest', async (req, reply) =>
        reply.code(403).send({
          error: 'WRITES_DISABLED',
          message: 'This API has no write tokens configured, so submitting and cancelling are off. Start it with SALIENT_API_TOKENS=<token>[,<token>...] and send Authorization: Bearer <token>.',
          requestId: String(req.id),
        }),
      );
    } else {
      // Token guessing is limited per address: the failures are counted in a window of their own, and
      // the count is checked before the token, so a right token after too many wrong ones is refused
      // too (otherwise the limit would only slow a guesser down until a guess hits).
      const failed = o.failedLoginLimit ?? { max: 10, timeWindowMs: 60_000 };
      const failures = w.createRateLimit({ max: failed.max, timeWindow: failed.timeWindowMs });
      await w.register(bearerAuth, { keys: new Set(tokens), addHook: false });
      const check = w.verifyBearerAuth;
      if (!check) throw new Error('@fastify/bearer-auth did not decorate verifyBearerAuth');
      const verify = (req: FastifyRequest, reply: FastifyReply) => new Promise<Error | undefined>((resolve) => check(req, reply, (err?: Error) => resolve(err)));
      w.addHook('onRequest', async (req, reply) => {
        const seen = await failures(req, { increment: false });
        if (!seen.isAllowed && seen.remaining === 0) {
          return reply
            .code(429)
            .header('retry-after', seen.ttlInSeconds)
            .send({
              error: 'TOO_MANY_FAILED_LOGINS',
              message: `Too many failed logins from this address (${failed.max} in ${failed.timeWindowMs / 1000} s); writes from it are refused for ${seen.ttlInSeconds} s more (see Retry-After), whatever the token.`,
              requestId: String(req.id),
            });
        }
        const err = await verify(req, reply);
        if (err === undefined) return undefined;
        await failures(req);
        return reply.code(401).send({ error: 'UNAUTHORIZED', message: `${err.message}: send Authorization: Bearer <token> with one of the API's write tokens.`, requestId: String(req.id) });
      });
    }
    const needQueue = (): string => {
      if (o.redis === undefined) {
        throw new SalientError(
          'QUEUE_UNREACHABLE',
          'This API has no tournament queue: start it with SALIENT_REDIS_URL (or --redis) pointing at the Redis your `salient worker`s use. To run a tournament on this machine instead: salient tournament run spec.yaml',
        );
      }
      return o.redis;
    };
    const limits = { rateLimit: { max: rate.max, timeWindow: rate.timeWindowMs } };
    w.post(
      '/api/tournaments',
      {
        config: limits,
        schema: {
          tags: ['tournaments'],
          summary: 'Submit a tournament to the queue (bearer token)',
          security: [{ bearer: [] }],
          body: submitBody,
          response: { 200: submitReply, 400: errorReply, 401: errorReply, 403: errorReply, 429: errorReply, 503: errorReply },
        },
      },
      async (req) => {
        // The spec is checked before the queue is: a bad spec is the caller's to fix either way.
        // `submitted`: a write token must not run programs on the workers (docs/bot-protocol.md, "Registered bots").
        const spec = await parseTournamentSpec(req.body.spec, 'the request body spec', {
          ...(req.body.format === undefined ? {} : { format: req.body.format }),
          ...(o.bots ? { bots: o.bots } : {}),
          submitted: true,
        });
        const connection = needQueue();
        const plan = await planTournament(spec);
        const report = await submitTournament(plan, { connection });
        // Listed at once, before any match is recorded; its page reads progress from the queue.
        await o.telemetry.recordTournament(tournamentRecord(plan, 'queue', 'submitted', new Date()));
        return report;
      },
    );
    w.post(
      '/api/tournaments/:id/retry',
      {
        config: limits,
        schema: {
          tags: ['tournaments'],
          summary: "Put a queue tournament's failed and cancelled matches back on the queue under their own ids (bearer token); lifts a cancel",
          security: [{ bearer: [] }],
          params: tournamentIdParams,
          response: { 200: retryReply, 400: errorReply, 401: errorReply, 403: errorReply, 404: errorReply, 429: errorReply, 503: errorReply },
        },
      },
      async (req) => retryTournament(req.params.id, { connection: needQueue() }),
    );
    w.post(
      '/api/tournaments/:id/cancel',
      {
        config: limits,
        schema: {
          tags: ['tournaments'],
          summary: 'Cancel a tournament on the queue (bearer token)',
          security: [{ bearer: [] }],
          params: tournamentIdParams,
          response: { 200: cancelReply, 401: errorReply, 403: errorReply, 404: errorReply, 429: errorReply, 503: errorReply },
        },
      },
      async (req) => cancelTournament(req.params.id, { connection: needQueue() }),
    );
  });
  return app;
}

/**
 * The serializer of routes whose 200 reply is built in its schema's order from values the telemetry
 * queries typed (a match page, one match): `JSON.stringify` as it is, the text zod's encode gives it
 * (zod copied every field of every row first, ~1 ms of the API's CPU for a page of 50 matches, as much
 * as the rest of the request outside the store). Other statuses go through zod. Under vitest every
 * reply is encoded both ways, and a difference fails the request, so the tests keep the two equal.
 */
const plainJson = (route: { schema: unknown; method: string; url: string; httpStatus?: string }): ((data: unknown) => string) => {
  const zod = (serializerCompiler as unknown as (r: typeof route) => (data: unknown) => string)(route);
  if (route.httpStatus !== '200') return zod;
  if (!CHECK_REPLIES) return (data) => JSON.stringify(data);
  return (data) => {
    const plain = JSON.stringify(data);
    const checked = zod(data);
    if (plain !== checked) throw new Error(`${route.method} ${route.url}: the reply as written differs from zod's encoding of it:\n${plain.slice(0, 400)}\n${checked.slice(0, 400)}`);
    return plain;
  };
};
const CHECK_REPLIES = process.env.VITEST !== undefined;

const noMatch = (id: string, requestId: string) => ({ error: 'UNKNOWN_MATCH', message: `No match '${id}' in the store; /api/matches lists them.`, requestId });

/** A tournament as the list shows it: the store's summary (or what the queue says of one it does not hold) and its one state. */
function listRow(v: TournamentOverview) {
  const m = v.summary;
  const spec = v.queue?.spec;
  return {
    id: v.id,
    game: v.game,
    scenarios: m?.scenarios.length ? m.scenarios : [...(spec?.scenarios ?? [])].sort(),
    bots: m?.bots ?? [],
    matches: m?.matches ?? v.counts.done,
    kinds: m?.kinds ?? {},
    firstStartedAt: m?.firstStartedAt ?? '',
    lastEndedAt: m?.lastEndedAt ?? '',
    ...(v.name !== undefined ? { name: v.name } : {}),
    planned: v.counts.planned,
    executor: v.executor,
    state: v.state,
    reason: v.reason,
    ...(m?.state !== undefined ? { recordedState: m.state } : {}),
    done: v.counts.done,
    lastActivity: v.lastActivity,
    source: v.source,
    ...(m?.updatedAt !== undefined ? { updatedAt: m.updatedAt } : {}),
  };
}

/** `x` with every non-finite number (an Elo of +inf when every pair went one way) as null, for JSON. */
function finite<T>(x: T): T {
  return JSON.parse(JSON.stringify(x, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v))) as T;
}
