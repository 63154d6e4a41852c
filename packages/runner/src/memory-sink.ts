import type { DecisionRow, EventRow, ImpulseRow, MatchRow, TelemetrySink } from './types.ts';

/** A telemetry sink that keeps every row in memory: for tests, `salient play` and small local runs. */
export class InMemorySink implements TelemetrySink {
  readonly impulses: ImpulseRow[] = [];
  readonly events: EventRow[] = [];
  readonly matches: MatchRow[] = [];
  readonly decisions: DecisionRow[] = [];
  /** How many times the runner flushed; lets tests see that flushes happen. */
  flushes = 0;

  impulse(row: ImpulseRow): void {
    this.impulses.push(row);
  }

  event(row: EventRow): void {
    this.events.push(row);
  }

  decision(row: DecisionRow): void {
    this.decisions.push(row);
  }

  match(row: MatchRow): void {
    this.matches.push(row);
  }

  flush(): void {
    this.flushes++;
  }
}
