/**
 * `runMatch`: play one game to its end with one bot per seat.
 *
 * The loop is boardgame.io's simulate loop plus budgets: ask `pending`, let chance draw from its
 * stream or the seated bot decide, `apply`, record. Everything around it (seating, asking bots under
 * a time budget, telemetry, building the result) lives in helpers so the loop stays readable.
 *
 * User mistakes (unknown seat, uncovered power, bad scenario or options) are thrown as
 * `SalientError`s before any move is made. Once play starts, nothing a bot or the game does throws:
 * it ends the match with a `forfeit` or `error` result that keeps the replay so far.
 */
import { canonicalJson, ENGINE_VERSION, hashJson, hashString, REPLAY_FORMAT, RngStreams, SalientError, seedSchema } from '@salient/engine';
import type { AnyGame, GameResult, Json, Position, Replay, ScenarioInfo, Step, Summary } from '@salient/engine';
import { askBot, BotStop, errorText, startBot, type AskOptions, type SeatClock } from './ask-bot.ts';
import { parseBotSpec } from './bot-spec.ts';
import { MatchRecorder, type RecordedStep } from './match-recorder.ts';
import { findScenario, resolveSeats, type Seating } from './seats.ts';
import type { Bot, BotEnding, DecisionClock, DecisionRequest, EventRowChoice, ForfeitReason, MatchResult, MatchSpec, ResultBase, TimeControl } from './types.ts';

const DEFAULT_DECISION_CAP = 100_000;
const DEFAULT_DECISION_TIMEOUT_MS = 10_000;
const DEFAULT_START_TIMEOUT_MS = 10_000;
/** Yield this often even in a game that never crosses an impulse boundary. */
const YIELD_EVERY_STEPS = 4096;

/** The kind-specific part of a result; the runner adds the common {@link ResultBase}. */
type Ending = MatchResult extends infer R ? (R extends unknown ? Omit<R, keyof ResultBase> : never) : never;

/** A fault of the game code itself (not of a bot), with a sentence saying where it happened. */
class GameFault extends Error {
  override readonly name = 'GameFault';
  constructor(
    message: string,
    override readonly cause: unknown,
  ) {
    super(message);
  }
}

/**
 * Play one match. Resolves with a {@link MatchResult} of kind `completed`, `adjudicated` (decision
 * cap reached), `forfeit` (a bot crashed, timed out or answered illegally), `error` (the game code
 * threw) or `cancelled` (`spec.signal` aborted). Rejects only for user mistakes in `spec`, errors
 * thrown by `game.setup` or a bot factory, and telemetry sink failures.
 */
export async function runMatch(spec: MatchSpec): Promise<MatchResult> {
  const { game, pack } = spec;
  const now = spec.now ?? (() => performance.now());
  const started = now();
  const scenario = findScenario(game, pack, spec.scenario);
  const seating = resolveSeats(scenario, Object.keys(spec.seats));
  checkSeatSpecs(spec);
  const time = timeControl(spec);
  // A replay of a match with any other seed would be refused, so no such match is played.
  const seedOk = seedSchema.safeParse(spec.seed);
  if (!seedOk.success) throw new SalientError('BAD_ARGUMENT', `seed ${spec.seed} ${seedOk.error.issues[0]?.message}; give a whole number from 0 to ${Number.MAX_SAFE_INTEGER}.`);
  let state: Json = game.setup(spec.scenario, pack, spec.options ?? {});
  const streams = new RngStreams(spec.seed);
  const bots = createBots(spec, seating, streams, time);
  const stops: Record<string, BotStop> = Object.fromEntries(Object.keys(bots).map((seat) => [seat, new BotStop()]));
  const clocks: Record<string, SeatClock> = Object.fromEntries(Object.keys(bots).map((seat) => [seat, { bankMs: time.bankMs, strikes: time.strikes, struck: 0, asked: 0 }]));
  let ending: BotEnding = { kind: 'error' };
  const seatRecord = Object.fromEntries(Object.entries(bots).map(([seat, bot]) => [seat, spec.seatSpecs?.[seat] ?? bot.name]));
  const matchId = spec.matchId ?? defaultMatchId(spec, seatRecord);
  const rec = new MatchRecorder(matchId, spec.sink, Object.keys(bots), eventRowFilter(game, spec.eventRows));
  const cap = spec.decisionCap ?? DEFAULT_DECISION_CAP;
  /** Every choice applied so far, in order. */
  const played: unknown[] = [];
  // Made once, not per decision: under tsx every named closure made costs a property definition.
  const encode = (c: unknown): string => game.encode(c);

  // How each seat is asked: the same every decision, so made once.
  const askOptions: Record<string, AskOptions> = Object.fromEntries(
    Object.keys(bots).map((seat) => [
      seat,
      { timeoutMs: time.decisionMs, now, signal: spec.signal, encode, stop: stops[seat]!, clock: clocks[seat]!, lateGraceMs: spec.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS },
    ]),
  );

  const startedAt = Date.now();
  const end = async (how: Ending, fromError = false): Promise<MatchResult> => {
    ending = botEnding(how);
    await rec.closeImpulse(() => impulseEnd(game, state, fromError));
    const result = { ...resultBase(spec, state, rec, bots, clocks, seatRecord, now() - started, fromError), ...how } as MatchResult;
    await rec.finish(result, {
      options: spec.options ?? {},
      seatSpecs: seatRecord,
      engineVersion: ENGINE_VERSION,
      tags: spec.tags ?? {},
      startedAt,
      endedAt: Date.now(),
    });
    return result;
  };

  try {
    const startFailure = await startBots(spec, bots, stops);
    if (startFailure) {
      const { seat, outcome } = startFailure;
      if (outcome.kind === 'cancelled') return await end({ kind: 'cancelled' });
      const bot = bots[seat] as Bot;
      const power = seating.powersOf[seat]?.[0] ?? seat;
      const detail = `Bot ${bot.name}@${bot.version} in seat ${seat} ${outcome.detail}`;
      const result = forfeitResult(game, state, scenario, seating, seat, outcome.reason, detail);
      return await end({ kind: 'forfeit', seat, power, reason: outcome.reason, detail, result });
    }
    for (;;) {
      if (spec.signal?.aborted) return await end({ kind: 'cancelled' });
      const pending = game.pending(state);
      if (pending.kind === 'terminal') return await end({ kind: 'completed', result: game.result(state) });
      if (rec.decisions >= cap) return await end({ kind: 'adjudicated', result: game.adjudicate(state), cap });

      const position = game.position(state);
      let choice: unknown;
      let seat: string | undefined;
      let thinkMs = 0;
      let rationale: string | undefined;
      let strike: number | undefined;
      if (pending.kind === 'chance') {
        choice = streams.get(pending.stream).sample(pending.outcomes);
      } else {
        seat = seatOf(seating, pending.power);
        const bot = bots[seat] as Bot;
        const clock = clocks[seat]!;
        const request = new Request(game, state, pending.power, pending.prompt, pending.options, position, {
          decisionMs: time.decisionMs,
          bankMs: clock.bankMs,
        });
        const asking = askBot(bot, request, askOptions[seat]!);
        // A synchronous bot's answer is used as it is: no promise, no turn of the microtask queue.
        const asked = asking instanceof Promise ? await asking : asking;
        request.seal();
        // The game failing to make the bot's observation is the game's fault, not a bot crash.
        const fault = request.fault;
        if (fault) throw new GameFault(`game.observe threw for power ${pending.power} at step ${rec.log.length}: ${errorText(fault)}`, fault);
        if (request.encodeFault) throw request.encodeFault.error;
        thinkMs = asked.thinkMs;
        if (asked.kind === 'cancelled') return await end({ kind: 'cancelled' });
        if (asked.kind === 'forfeit') {
          rec.addThinkTime(seat, thinkMs);
          const detail = `Bot ${bot.name}@${bot.version} in seat ${seat} (power ${pending.power}) ${asked.detail}`;
          const result = forfeitResult(game, state, scenario, seating, seat, asked.reason, detail);
          return await end({ kind: 'forfeit', seat, power: pending.power, reason: asked.reason, detail, result });
        }
        choice = pending.options[asked.index];
        rationale = asked.rationale;
        strike = asked.strike;
      }

      const text = game.encode(choice);
      const by = pending.kind === 'chance' ? 'chance' : pending.power;
      // Described before the step: `applyOwned` may build the next state in this one.
      const label = spec.onStep ? (game.describe?.(state, choice) ?? text) : text;
      let step: Step<Json>;
      try {
        step = applyChoice(game, state, choice, text, by, rec.log.length);
      } catch (e) {
        // An owned apply may have left the state half changed: the result is built from the state
        // before the failing step, rebuilt from the choices so far.
        if (game.applyOwned) {
          try {
            state = rebuild(spec, played);
          } catch {
            // Keep the half-changed state; the result is built from it leniently.
          }
        }
        throw e;
      }
      played.push(choice);
      // Optional fields set only when present (as the spreads of them did), without temporary objects.
      const recorded: RecordedStep = { by, choice: text, position, events: step.events, thinkMs };
      if (seat !== undefined) {
        recorded.seat = seat;
        recorded.prompt = pending.prompt;
        recorded.optionCount = pending.kind === 'decision' ? pending.options.length : 0;
      }
      if (rationale !== undefined) recorded.rationale = rationale;
      if (strike !== undefined) recorded.strike = strike;
      rec.record(recorded);
      spec.onStep?.({
        index: rec.log.length - 1,
        actor: by,
        choice: text,
        label,
        prompt: pending.prompt,
        position,
        events: step.events,
        ...(step.boundary ? { boundary: step.boundary } : {}),
        ...(seat === undefined ? {} : { thinkMs }),
        ...(strike === undefined ? {} : { strike, ...(rationale === undefined ? {} : { rationale }) }),
      });
      state = step.state;

      if (step.boundary === 'impulse' || step.boundary === 'turn') {
        // Awaited only when the sink's flush has something to wait for (see closeImpulse).
        const flushing = rec.closeImpulse(() => impulseEnd(game, state, false));
        if (flushing) await flushing;
        await yieldToEventLoop();
      } else if (rec.log.length % YIELD_EVERY_STEPS === 0) {
        await yieldToEventLoop();
      }
    }
  } catch (e) {
    if (rec.sinkFailed) throw e;
    const cause = e instanceof GameFault ? e.cause : e;
    const detail = e instanceof GameFault ? e.message : `The game threw after step ${rec.log.length}: ${errorText(e)}`;
    const stack = cause instanceof Error ? cause.stack : undefined;
    return await end({ kind: 'error', detail, ...(stack === undefined ? {} : { stack }) }, true);
  } finally {
    await closeBots(Object.values(bots), ending);
  }
}

/**
 * The match id used when `spec.matchId` is not given: a hash of everything that determines the game
 * (game, rules version, pack hash, scenario, options, seed) and of who played it, so re-running the
 * same match gives the same id and telemetry writes stay idempotent.
 */
export function defaultMatchId(spec: MatchSpec, seats: Record<string, string>): string {
  const { game, pack } = spec;
  return hashString(
    canonicalJson({
      game: game.id,
      rulesVersion: game.rulesVersion,
      packHash: pack.info.hash,
      scenario: spec.scenario,
      options: spec.options ?? {},
      seed: spec.seed,
      seats,
    }),
  );
}

function checkSeatSpecs(spec: MatchSpec): void {
  const stray = Object.keys(spec.seatSpecs ?? {}).filter((s) => !Object.hasOwn(spec.seats, s));
  if (stray.length) {
    throw new SalientError(
      'BAD_SEATS',
      `seatSpecs names seat(s) ${stray.join(', ')} that have no bot. Seats with bots: ${Object.keys(spec.seats).join(', ') || '(none)'}.`,
    );
  }
}

/** The match's time control from the spec, checked. */
function timeControl(spec: MatchSpec): TimeControl {
  const decisionMs = spec.decisionTimeoutMs ?? DEFAULT_DECISION_TIMEOUT_MS;
  const bankMs = spec.timeBankMs ?? 0;
  const strikes = spec.strikes ?? 1;
  if (!Number.isFinite(bankMs) || bankMs < 0) throw new SalientError('BAD_ARGUMENT', `timeBankMs must be 0 or more (ms); got ${bankMs}.`);
  if (!Number.isInteger(strikes) || strikes < 1) throw new SalientError('BAD_ARGUMENT', `strikes must be a whole number, 1 or more; got ${strikes}.`);
  return { decisionMs, bankMs, strikes };
}

function createBots(spec: MatchSpec, seating: Seating, streams: RngStreams, time: TimeControl): Record<string, Bot> {
  const bots: Record<string, Bot> = {};
  for (const [seat, factory] of Object.entries(spec.seats)) {
    const text = spec.seatSpecs?.[seat];
    bots[seat] = factory({
      game: spec.game,
      seat,
      powers: seating.powersOf[seat] ?? [],
      rng: streams.get(`bot:${seat}`),
      params: text === undefined ? {} : parseBotSpec(text).params,
      scenario: spec.scenario,
      time,
    });
  }
  return bots;
}

/** Start every bot that needs it, side by side; the first seat (in seat order) that failed, if any. */
async function startBots(
  spec: MatchSpec,
  bots: Record<string, Bot>,
  stops: Record<string, BotStop>,
): Promise<{ seat: string; outcome: Exclude<Awaited<ReturnType<typeof startBot>>, { kind: 'ready' }> } | undefined> {
  const seats = Object.keys(bots).filter((seat) => bots[seat]?.start);
  if (seats.length === 0) return undefined;
  const timeoutMs = spec.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
  const outcomes = await Promise.all(seats.map((seat) => startBot(bots[seat] as Bot, { timeoutMs, signal: spec.signal, stop: stops[seat]! })));
  for (const [i, outcome] of outcomes.entries()) if (outcome.kind !== 'ready') return { seat: seats[i]!, outcome };
  return undefined;
}

/** What the bots are told of how the match ended. */
function botEnding(how: Ending): BotEnding {
  switch (how.kind) {
    case 'completed':
    case 'adjudicated':
      return { kind: how.kind, result: how.result };
    case 'forfeit':
      return { kind: how.kind, result: how.result, forfeit: { seat: how.seat, reason: how.reason, detail: how.detail } };
    default:
      return { kind: how.kind };
  }
}

async function closeBots(bots: readonly Bot[], ending: BotEnding): Promise<void> {
  // A bot that fails to close must not hide the match result; there is nothing useful to do about it.
  await Promise.allSettled(bots.map(async (b) => b.close?.(ending)));
}

function seatOf(seating: Seating, power: string): string {
  const seat = seating.seatOf.get(power);
  if (seat === undefined) {
    throw new GameFault(`The game asked power '${power}' to decide, but the scenario has no such power.`, undefined);
  }
  return seat;
}

/**
 * What a bot is asked. The observation is made the first time the bot reads it (a copy of the state
 * for most games, and bots such as `random` never look), then kept. The runner may build the next
 * state in this one (`applyOwned`), so `seal` is called once the bot has answered: an observation
 * not read by then can no longer be (reading it throws) rather than show a later state. `fault` is
 * what making it threw, if it did. The labels are made the first time they are read too (from the
 * options, which the request keeps): a random bot never reads them either.
 *
 * A class rather than an object literal with getters: one allocation per decision, and the getters
 * live once on the prototype.
 */
class Request implements DecisionRequest {
  fault: unknown;
  private made = false;
  private sealed = false;
  private observed: unknown;
  private encoded: string[] | undefined;
  /** What `game.encode` threw while the labels were made, if it did (the game's fault, as a throw in the loop is). */
  encodeFault: { error: unknown } | undefined;

  constructor(
    private readonly game: AnyGame,
    private readonly state: Json,
    readonly power: string,
    readonly prompt: string,
    readonly options: readonly unknown[],
    readonly position: Position,
    readonly clock: DecisionClock,
  ) {}

  get observation(): unknown {
    if (!this.made) {
      if (this.sealed) throw new Error(`the observation of a decision can only be read until the bot answers (power ${this.power}, ${this.prompt})`);
      try {
        this.observed = this.game.observe(this.state, this.power);
      } catch (e) {
        this.fault = e;
        throw e;
      }
      this.made = true;
    }
    return this.observed;
  }

  get labels(): readonly string[] {
    if (this.encoded === undefined) {
      const { options, game } = this;
      const labels: string[] = new Array(options.length);
      try {
        for (let i = 0; i < options.length; i++) labels[i] = game.encode(options[i]);
      } catch (e) {
        this.encodeFault ??= { error: e };
        throw e;
      }
      this.encoded = labels;
    }
    return this.encoded;
  }

  seal(): void {
    this.sealed = true;
  }

  /** As JSON, the request a bot is told of, as a plain object of it would be (not the runner's fields). */
  toJSON(): DecisionRequest {
    return { power: this.power, prompt: this.prompt, options: this.options, observation: this.observation, labels: this.labels, position: this.position, clock: this.clock };
  }
}

/** The step, built in `state` itself where the game can (`applyOwned`: the runner never reads a state again once it stepped on). */
function applyChoice(game: AnyGame, state: Json, choice: unknown, text: string, by: string, index: number): Step<Json> {
  try {
    return (game.applyOwned ? game.applyOwned(state, choice) : game.apply(state, choice)) as Step<Json>;
  } catch (e) {
    throw new GameFault(`game.apply threw at step ${index} on '${text}' by ${by}: ${errorText(e)}`, e);
  }
}

/** The state after `choices` from the start, through the pure `apply` (only after a game fault). */
function rebuild(spec: MatchSpec, choices: readonly unknown[]): Json {
  const { game } = spec;
  let state: Json = game.setup(spec.scenario, spec.pack, spec.options ?? {});
  for (const c of choices) state = game.apply(state, c).state as Json;
  return state;
}

/** A forfeit loses for every side the seat plays on and wins for every other side; scores as adjudicated. */
function forfeitResult(
  game: AnyGame,
  state: Json,
  scenario: ScenarioInfo,
  seating: Seating,
  seat: string,
  reason: ForfeitReason,
  detail: string,
): GameResult {
  const adjudicated = game.adjudicate(state);
  const losing = new Set((seating.powersOf[seat] ?? []).map((p) => seating.sideOf.get(p)));
  return {
    sides: Object.fromEntries(scenario.sides.map((s) => [s.id, losing.has(s.id) ? 'loss' : 'win'])),
    scores: adjudicated.scores,
    margin: adjudicated.margin,
    reason: `Seat ${seat} forfeited (${reason}). ${detail}`,
  };
}

function resultBase(
  spec: MatchSpec,
  state: Json,
  rec: MatchRecorder,
  bots: Record<string, Bot>,
  clocks: Record<string, SeatClock>,
  seats: Record<string, string>,
  wallMs: number,
  fromError: boolean,
): ResultBase {
  const { game, pack } = spec;
  // After a game fault the state may be what broke `position` or the hash; the result must still be built.
  const position = guard(fromError, () => game.position(state), { turn: 0, impulse: 0, phase: 'unknown', step: 'unknown' });
  // The last impulse row's hash is the final state's when no step came after it (not after a game
  // fault: the state may then have changed, or been rebuilt, without a recorded step).
  const finalHash = (fromError ? undefined : rec.hashSinceLastStep) ?? stateHash(state, fromError);
  const packInfo = { id: pack.info.id, version: pack.info.version, fidelity: pack.info.fidelity, hash: pack.info.hash };
  const replay: Replay = {
    format: REPLAY_FORMAT,
    game: game.id,
    rulesVersion: game.rulesVersion,
    pack: packInfo,
    scenario: spec.scenario,
    options: spec.options ?? {},
    seed: spec.seed,
    seats,
    log: rec.log,
    finalHash,
  };
  return {
    matchId: rec.matchId,
    game: game.id,
    rulesVersion: game.rulesVersion,
    pack: packInfo,
    scenario: spec.scenario,
    seed: spec.seed,
    bots: Object.fromEntries(Object.entries(bots).map(([seat, b]) => [seat, `${b.name}@${b.version}`])),
    decisions: rec.decisions,
    chanceDraws: rec.chanceDraws,
    impulses: rec.impulses,
    position,
    finalHash,
    wallMs,
    thinkMsBySeat: rec.thinkMsBySeat,
    strikesBySeat: Object.fromEntries(Object.entries(clocks).map(([seat, c]) => [seat, c.struck])),
    bankMsBySeat: Object.fromEntries(Object.entries(clocks).map(([seat, c]) => [seat, c.bankMs])),
    replay,
  };
}

/** Which event types get a row (undefined: all), from {@link MatchSpec.eventRows}. */
function eventRowFilter(game: AnyGame, choice: EventRowChoice = 'game'): ReadonlySet<string> | undefined {
  if (choice === 'all') return undefined;
  if (choice === 'game') return game.telemetryEvents ? new Set(game.telemetryEvents) : undefined;
  if (!Array.isArray(choice) || choice.some((t) => typeof t !== 'string')) {
    throw new SalientError('BAD_ARGUMENT', `eventRows must be 'game', 'all' or a list of event types; got ${JSON.stringify(choice)}.`);
  }
  return new Set(choice);
}

/** Position, the game's summary and the state hash at the end of an impulse. */
function impulseEnd(game: AnyGame, state: Json, lenient: boolean): { position: Position; summary?: Summary; stateHash: string } {
  const position = guard(lenient, () => game.position(state), { turn: 0, impulse: 0, phase: 'unknown', step: 'unknown' });
  const summary = guard(lenient, () => game.summarize?.(state), undefined);
  return { position, stateHash: stateHash(state, lenient), ...(summary ? { summary } : {}) };
}

function stateHash(state: Json, lenient: boolean): string {
  return guard(lenient, () => hashJson(state), '0'.repeat(16));
}

function guard<T>(lenient: boolean, f: () => T, fallback: T): T {
  if (!lenient) return f();
  try {
    return f();
  } catch {
    return fallback;
  }
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
