/**
 * Public types of the match runner: bots, seats, telemetry rows and match results.
 */
import type { AnyGame, GameEvent, GameResult, JsonObject, LoadedPack, Position, Replay, RngStream, Summary } from '@salient/engine';

/** What a bot is told when it must choose. It sees only its power's observation and the legal options. */
export interface DecisionRequest<C = unknown, O = unknown> {
  power: string;
  prompt: string;
  options: readonly C[];
  observation: O;
  /** Encoded options, same order, for bots that prefer text. */
  labels: readonly string[];
  position: Position;
  /** The time this decision may take (see {@link DecisionClock}); set by the runner. */
  clock?: DecisionClock;
}

/** The time a bot has for one decision: `decisionMs`, then what is left of its seat's bank. */
export interface DecisionClock {
  /** Per-decision budget (`MatchSpec.decisionTimeoutMs`). */
  decisionMs: number;
  /** The seat's remaining time bank; time over `decisionMs` is drawn from it. */
  bankMs: number;
}

/** A match's time control, as a bot is told it before play. */
export interface TimeControl {
  decisionMs: number;
  /** The seat's time bank at the start of the match. */
  bankMs: number;
  /** Overruns a seat may make; the last one forfeits. */
  strikes: number;
}

/** How a match ended, told to each bot as it is closed. */
export interface BotEnding {
  kind: MatchResult['kind'];
  /** Side id -> win / loss / draw, and power -> score, when the match was decided. */
  result?: GameResult;
  /** For a forfeit: who forfeited, and why. */
  forfeit?: { seat: string; reason: ForfeitReason; detail: string };
}

/** What a bot returns: the index of the chosen option (or the option itself), with an optional rationale. */
export type BotAnswer<C = unknown> = number | { index: number; rationale?: string } | { choice: C; rationale?: string };

/** Given once per match, before the first decision. */
export interface BotContext {
  /** The game being played; search bots use `game.model`, never the real state. */
  game: AnyGame;
  /** The seat this bot plays (a side id or a power id) and the powers it controls. */
  seat: string;
  powers: readonly string[];
  /** This bot's own RNG stream, derived from the match seed and the seat. */
  rng: RngStream;
  /** Bot parameters from the seat spec (`greedy:depth=2` -> { depth: '2' }). */
  params: Readonly<Record<string, string>>;
  /** Scenario id and time control; set by `runMatch` (external bots pass them on in their handshake). */
  scenario?: string;
  time?: TimeControl;
}

/** A bot plays one seat for one match. `decide` may be async (external processes, HTTP). */
export interface Bot {
  /** Registry name and version, recorded with the match (`random@1`). */
  readonly name: string;
  readonly version: string;
  decide(request: DecisionRequest, signal: AbortSignal): BotAnswer | Promise<BotAnswer>;
  /**
   * Optional: get ready before the first decision (an external bot starts its process and shakes
   * hands). The runner gives it `MatchSpec.startTimeoutMs`; a rejection forfeits the seat (reason
   * `crash`, or the `BotFault`'s reason).
   */
  start?(signal: AbortSignal): Promise<void>;
  /**
   * Optional: resolves once the bot is done with a decision the runner stopped waiting for (a timeout
   * strike before the last: an external bot still owes its late answer), so that its next decision is
   * asked, and timed, only when the bot can start on it. The runner calls it before the seat's next
   * decision and waits at most the late decision's deadline, and at least `MatchSpec.startTimeoutMs`,
   * counted from the strike; longer forfeits the seat (`timeout`), a rejection forfeits it as `start`'s
   * does. Without it, the bot is taken to be ready at once.
   */
  idle?(signal: AbortSignal): Promise<void>;
  /** Called once when the match is over, however it ended; must release everything the bot holds. */
  close?(ending?: BotEnding): void | Promise<void>;
}


/** Creates a bot for one match. */
export type BotFactory = (ctx: BotContext) => Bot;

/** Seat id (side or power) -> bot. */
export type Seats = Record<string, BotFactory>;

export interface MatchSpec {
  game: AnyGame;
  pack: LoadedPack;
  scenario: string;
  options?: JsonObject;
  seed: number;
  /** Seat id -> bot factory. Each seat is a side id or a power id; every power must be covered exactly once. */
  seats: Seats;
  /** Seat id -> text spec (`random`, `greedy:depth=1`), recorded in the replay. Defaults to the bot names. */
  seatSpecs?: Record<string, string>;
  /** Stop and adjudicate after this many decisions (default 100 000). */
  decisionCap?: number;
  /** Per-decision budget in ms; a bot that takes longer forfeits (default 10 000). */
  decisionTimeoutMs?: number;
  /**
   * Per-seat time bank in ms (default 0): a decision may run over `decisionTimeoutMs` by drawing on it.
   * A decision that uses up its budget and the bank is a strike (see `strikes`).
   */
  timeBankMs?: number;
  /**
   * Strikes a seat may take before it forfeits (default 1: the first overrun forfeits with reason
   * `timeout`). On an earlier strike the runner plays the first offered option for the seat and says so
   * in the decision's rationale, and the bank is empty from then on.
   */
  strikes?: number;
  /**
   * Time in ms a bot's `start` (an external bot's handshake) may take (default 10 000); also the least
   * time the runner waits, after a strike, for a late answer the bot still owes (see {@link Bot.idle}).
   */
  startTimeoutMs?: number;
  signal?: AbortSignal;
  sink?: TelemetrySink;
  /**
   * Which events the sink gets an event row for (default `game`: the types the game lists in
   * `telemetryEvents`, or every event if it lists none; `all`: every event; or a list of types).
   * Impulse rows count every event whatever this says.
   */
  eventRows?: EventRowChoice;
  /** Match id for telemetry rows (default: derived from game, scenario, pack hash, seed and seats). */
  matchId?: string;
  /** Called after every applied step, for live output. */
  onStep?: (info: StepInfo) => void;
  /** Where and why the match is played (tournament, worker), recorded in the match row. */
  tags?: MatchTags;
  /** Clock for decision timing (default `performance.now`). Tests may inject one. */
  now?: () => number;
}

export interface StepInfo {
  index: number;
  actor: string;
  choice: string;
  label: string;
  prompt: string;
  position: Position;
  events: readonly GameEvent[];
  boundary?: 'phase' | 'impulse' | 'turn';
  thinkMs?: number;
  /** On a decision the runner made for a bot that ran out of time: which strike it was, and the rationale saying so. */
  strike?: number;
  rationale?: string;
}

/** See {@link MatchSpec.eventRows}. */
export type EventRowChoice = 'game' | 'all' | readonly string[];

/** Provenance recorded with a match: the tournament it belongs to and the worker that played it. */
export interface MatchTags {
  tournament?: string;
  worker?: string;
}

/** One row per impulse (written at every `impulse` or `turn` boundary and at the end). */
export interface ImpulseRow {
  matchId: string;
  /** 0-based impulse ordinal within the match. */
  seq: number;
  position: Position;
  /** Powers that made decisions during the impulse. */
  activePowers: string[];
  /** Encoded choices made during the impulse, in order. */
  choices: string[];
  decisions: number;
  chanceDraws: number;
  /** Event counts by type during the impulse. */
  eventCounts: Record<string, number>;
  /** Decision time (ms) spent per seat during the impulse. */
  thinkMsBySeat: Record<string, number>;
  /** Event counts by power (events without a power under `''`) and type. */
  eventCountsByPower: Record<string, Record<string, number>>;
  /** Where the impulse ended. */
  end: Position;
  /** The game's summary of the position at the end of the impulse, if it offers one. */
  summary?: Summary;
  stateHash: string;
}

/** One row per decision (a sink may keep only a sample). */
export interface DecisionRow {
  matchId: string;
  /** 0-based decision ordinal within the match. */
  seq: number;
  impulseSeq: number;
  position: Position;
  power: string;
  seat: string;
  prompt: string;
  optionCount: number;
  choice: string;
  thinkMs: number;
  /** Why the bot chose it, if the bot said (or, on a strike, why the runner chose for it). */
  rationale?: string;
  /**
   * The seat's strike number when the bot ran out of time and the runner played the first option for
   * it (1 for its first strike); absent otherwise. A sampling sink keeps every decision that has one.
   */
  strike?: number;
}

/** One row per domain event. */
export interface EventRow {
  matchId: string;
  seq: number;
  impulseSeq: number;
  position: Position;
  event: GameEvent;
}

/** One row per match, written once at the end. */
export interface MatchRow {
  matchId: string;
  result: MatchResult;
  options: JsonObject;
  /** Seat id -> bot spec as given (`greedy:chance=0`). */
  seatSpecs: Record<string, string>;
  engineVersion: string;
  tags: MatchTags;
  /** Wall-clock start and end (ms since the epoch), for the record; never part of a replay. */
  startedAt: number;
  endedAt: number;
}

/** Where telemetry goes. The runner awaits `flush` at impulse boundaries and at the end. */
export interface TelemetrySink {
  impulse(row: ImpulseRow): void;
  event(row: EventRow): void;
  /** Optional: one call per decision; the sink decides what to keep. */
  decision?(row: DecisionRow): void;
  /**
   * Optional: whether `decision` would keep decision `seq` (0-based) of `matchId`. A sink that samples
   * decisions says so here, and the runner builds rows only for the decisions it keeps, and for every
   * strike (a row with `strike`), which a sampling sink keeps whatever the sample says.
   */
  keepsDecision?(matchId: string, seq: number): boolean;
  match(row: MatchRow): void;
  flush?(): void | Promise<void>;
}

export type ForfeitReason = 'crash' | 'timeout' | 'illegal';

/** What every match result carries, whatever its kind. */
export interface ResultBase {
  matchId: string;
  game: string;
  rulesVersion: string;
  pack: { id: string; version: string; fidelity: string; hash: string };
  scenario: string;
  seed: number;
  /** Seat id -> `name@version` of the bot. */
  bots: Record<string, string>;
  decisions: number;
  chanceDraws: number;
  impulses: number;
  position: Position;
  finalHash: string;
  /** Wall time of the whole match and total think time per seat, in ms. */
  wallMs: number;
  thinkMsBySeat: Record<string, number>;
  /** Timeout strikes each seat took (the one that forfeited included), and the time bank it had left, in ms. */
  strikesBySeat: Record<string, number>;
  bankMsBySeat: Record<string, number>;
  replay: Replay;
}

export type MatchResult =
  | (ResultBase & { kind: 'completed'; result: GameResult })
  | (ResultBase & { kind: 'adjudicated'; result: GameResult; cap: number })
  | (ResultBase & { kind: 'forfeit'; seat: string; power: string; reason: ForfeitReason; detail: string; result: GameResult })
  | (ResultBase & { kind: 'error'; detail: string; stack?: string })
  | (ResultBase & { kind: 'cancelled' });
