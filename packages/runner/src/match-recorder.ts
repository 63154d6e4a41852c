/**
 * Bookkeeping of one match: the action log, the counters that go into the result, and the telemetry
 * rows (one per impulse, one per event, one per match) sent to the sink.
 */
import type { GameEvent, LogEntry, Position, Summary } from '@salient/engine';
import type { DecisionRow, ImpulseRow, MatchResult, MatchRow, TelemetrySink } from './types.ts';

/** One applied step as the recorder needs it. */
export interface RecordedStep {
  /** Power that decided, or `chance`. */
  by: string;
  /** Seat of the deciding bot; absent for chance. */
  seat?: string;
  choice: string;
  /** Position before the step. */
  position: Position;
  events: readonly GameEvent[];
  thinkMs: number;
  /** For decisions: what was asked and how many options there were, and the bot's reason if given. */
  prompt?: string;
  optionCount?: number;
  rationale?: string;
  /** The seat's strike number, when the runner chose for a bot out of time. */
  strike?: number;
}

interface OpenImpulse {
  position: Position;
  activePowers: string[];
  choices: string[];
  decisions: number;
  chanceDraws: number;
  eventCounts: Record<string, number>;
  eventCountsByPower: Record<string, Record<string, number>>;
  thinkMsBySeat: Record<string, number>;
}

/** A new open impulse starting at `position`, with nothing counted yet. */
function openImpulse(position: Position): OpenImpulse {
  return { position, activePowers: [], choices: [], decisions: 0, chanceDraws: 0, eventCounts: {}, eventCountsByPower: {}, thinkMsBySeat: {} };
}

/** The open impulse when no sink stores rows: only whether one is open matters then. */
const NO_ROWS: OpenImpulse = Object.freeze(openImpulse({ turn: 0, impulse: 0, phase: '', step: '' })) as OpenImpulse;

export class MatchRecorder {
  readonly log: LogEntry[] = [];
  decisions = 0;
  chanceDraws = 0;
  /** Impulses closed so far; also the sequence number of the open one. */
  impulses = 0;
  readonly thinkMsBySeat: Record<string, number>;
  /**
   * Set when the sink threw. The runner then lets the error out instead of calling it a game fault:
   * a storage failure is infrastructure, and the match should be retried, not recorded as broken.
   */
  sinkFailed = false;
  private eventSeq = 0;
  private open: OpenImpulse | undefined;
  /** See {@link hashSinceLastStep}; cleared by every recorded step. */
  private closedHash: string | undefined;

  constructor(
    readonly matchId: string,
    private readonly sink: TelemetrySink | undefined,
    seats: readonly string[],
    /** Event types that get an event row; undefined: all. Every event is counted in the impulse row. */
    private readonly eventRows?: ReadonlySet<string>,
  ) {
    this.thinkMsBySeat = Object.fromEntries(seats.map((s) => [s, 0]));
  }

  record(step: RecordedStep): void {
    this.log.push({ by: step.by, choice: step.choice });
    this.closedHash = undefined;
    if (!this.sink) {
      // Nobody stores the rows: keep the counters of the result only (the impulse still opens, so
      // the impulse count is what it would be with a sink).
      this.open ??= NO_ROWS;
      if (step.seat === undefined) this.chanceDraws++;
      else {
        this.decisions++;
        this.thinkMsBySeat[step.seat] = (this.thinkMsBySeat[step.seat] ?? 0) + step.thinkMs;
      }
      this.eventSeq += step.events.length;
      return;
    }
    const imp = (this.open ??= openImpulse(step.position));
    if (step.seat === undefined) {
      this.chanceDraws++;
      imp.chanceDraws++;
    } else {
      this.decisions++;
      imp.decisions++;
      imp.choices.push(step.choice);
      if (!imp.activePowers.includes(step.by)) imp.activePowers.push(step.by);
      this.thinkMsBySeat[step.seat] = (this.thinkMsBySeat[step.seat] ?? 0) + step.thinkMs;
      imp.thinkMsBySeat[step.seat] = (imp.thinkMsBySeat[step.seat] ?? 0) + step.thinkMs;
      // A strike is always kept: a sample of them would hide how often a bot runs out of time.
      if (this.sink?.decision && (step.strike !== undefined || (this.sink.keepsDecision?.(this.matchId, this.decisions - 1) ?? true))) {
        // Optional fields set only when present, as spreads of them would, without temporary objects.
        const row: DecisionRow = {
          matchId: this.matchId,
          seq: this.decisions - 1,
          impulseSeq: this.impulses,
          position: step.position,
          power: step.by,
          seat: step.seat,
          prompt: step.prompt ?? '',
          optionCount: step.optionCount ?? 0,
          choice: step.choice,
          thinkMs: step.thinkMs,
        };
        if (step.rationale !== undefined) row.rationale = step.rationale;
        if (step.strike !== undefined) row.strike = step.strike;
        this.toSink((s) => s.decision?.(row));
      }
    }
    for (const event of step.events) {
      imp.eventCounts[event.type] = (imp.eventCounts[event.type] ?? 0) + 1;
      const byPower = (imp.eventCountsByPower[event.power ?? ''] ??= {});
      byPower[event.type] = (byPower[event.type] ?? 0) + 1;
      // The sequence number counts every event, so the rows kept still say where each one fell.
      const seq = this.eventSeq++;
      if (!this.sink || (this.eventRows && !this.eventRows.has(event.type))) continue;
      const row = { matchId: this.matchId, seq, impulseSeq: this.impulses, position: step.position, event };
      this.toSink((s) => s.event(row));
    }
  }

  /** Think time of a decision that produced no step (a forfeit) still counts for its seat. */
  addThinkTime(seat: string, ms: number): void {
    this.thinkMsBySeat[seat] = (this.thinkMsBySeat[seat] ?? 0) + ms;
  }

  /**
   * Close the open impulse, if anything happened in it, and flush the sink. `end` gives the position,
   * the game's summary and the state hash at the close; it is only called when a sink stores the row.
   * Returns the sink's flush when that is a promise (the runner awaits it), else nothing: a sink whose
   * flush has nothing to wait for costs the game no turn of the microtask queue at every impulse.
   */
  closeImpulse(end: () => { position: Position; summary?: Summary; stateHash: string }): Promise<void> | undefined {
    const imp = this.open;
    if (!imp) return undefined;
    this.open = undefined;
    const seq = this.impulses++;
    if (!this.sink) return undefined;
    // Hashing a large state is not free; only pay for it when someone stores the row.
    const e = end();
    this.closedHash = e.stateHash;
    // The row's fields written out (no spreads of `imp` and `e`): one object, built in one go.
    const row: ImpulseRow = {
      matchId: this.matchId,
      seq,
      position: imp.position,
      activePowers: imp.activePowers,
      choices: imp.choices,
      decisions: imp.decisions,
      chanceDraws: imp.chanceDraws,
      eventCounts: imp.eventCounts,
      eventCountsByPower: imp.eventCountsByPower,
      thinkMsBySeat: imp.thinkMsBySeat,
      end: e.position,
      stateHash: e.stateHash,
    };
    if (e.summary) row.summary = e.summary;
    this.toSink((s) => s.impulse(row));
    return this.flush();
  }

  /**
   * The state hash of the impulse closed last, while no step was recorded since (the state is then
   * the one it was computed from): the match's final hash needs no second walk of the same state.
   */
  get hashSinceLastStep(): string | undefined {
    return this.closedHash;
  }

  /** Write the match row and flush. */
  async finish(result: MatchResult, row: Omit<MatchRow, 'matchId' | 'result'>): Promise<void> {
    this.toSink((s) => s.match({ matchId: this.matchId, result, ...row }));
    await this.flush();
  }

  /** The sink's flush; its failure (thrown, or the promise's) marks the sink failed. */
  private flush(): Promise<void> | undefined {
    let flushed: Promise<void> | undefined;
    try {
      flushed = this.sink?.flush?.() as Promise<void> | undefined;
    } catch (e) {
      this.sinkFailed = true;
      throw e;
    }
    if (flushed === undefined || typeof flushed.then !== 'function') return undefined;
    return flushed.then(undefined, (e: unknown) => {
      this.sinkFailed = true;
      throw e;
    });
  }

  private toSink(write: (sink: TelemetrySink) => void): void {
    if (!this.sink) return;
    try {
      write(this.sink);
    } catch (e) {
      this.sinkFailed = true;
      throw e;
    }
  }
}
