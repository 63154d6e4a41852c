/**
 * The readable account of a match: turn by turn, what happened (the games' own event lines), and at the
 * end who won, why, and how the match ended. Used live while a match runs (`play`, `demo`) and when
 * re-running a replay, so both read the same.
 */
import type { GameEvent, GameResult, Position, ScenarioInfo } from '@salient/engine';
import type { MatchResult } from '@salient/runner';

/** One applied step, as the account needs it (a subset of the runner's `StepInfo`). */
export interface AccountStep {
  /** Power that decided, or `chance`. */
  actor: string;
  prompt: string;
  /** Human label of the choice. */
  label: string;
  /** Where the step was taken (before applying it). */
  position: Position;
  events: readonly GameEvent[];
  /** Set when the runner chose for a bot out of time: its strike number and the rationale saying so. */
  strike?: number;
  rationale?: string;
}

export interface AccountOptions {
  /** Print one line per decision and chance draw, not just the events. */
  verbose?: boolean;
  write: (line: string) => void;
}

/**
 * Prints steps as they come, grouped under turn and impulse/phase headings. Headings are printed only
 * when something is printed under them, so quiet stretches of sub-decisions leave no empty headings.
 */
export class Account {
  /** Event counts by type, for the closing summary. */
  readonly eventCounts = new Map<string, number>();
  private turn: number | undefined;
  private section: string | undefined;

  constructor(private readonly o: AccountOptions) {}

  step(s: AccountStep): void {
    for (const e of s.events) this.eventCounts.set(e.type, (this.eventCounts.get(e.type) ?? 0) + 1);
    const lines: string[] = [];
    // Game labels usually name what was asked already, so decisions show just the label; dice show what they were for.
    if (this.o.verbose) lines.push(s.actor === 'chance' ? `· ${s.prompt}: ${s.label}` : `${s.actor}: ${s.label}`);
    // A strike is the bot's time running out, which the verbose account must not pass over in silence.
    if (this.o.verbose && s.strike !== undefined) lines.push(`  ! ${s.rationale ?? `timeout strike ${s.strike}: the runner played the first option`}`);
    // A `turn` event opens the next turn (the contract's convention): it and what follows it in this
    // step are told under that turn's heading, not under the phase that just closed.
    const opens = s.events.findIndex((e) => e.type === 'turn');
    const before = opens < 0 ? s.events : s.events.slice(0, opens);
    for (const e of before) lines.push(`${this.o.verbose ? '  ' : ''}${e.text}`);
    if (lines.length > 0) {
      const p = s.position;
      this.heading(p.turn);
      const section = `impulse ${p.impulse} · ${p.phase}`;
      if (section !== this.section) {
        this.section = section;
        this.o.write(`  ${section}`);
      }
      for (const l of lines) this.o.write(`    ${l}`);
    }
    if (opens < 0) return;
    const t = s.events[opens]!.data?.['turn'];
    this.heading(typeof t === 'number' ? t : s.position.turn + 1);
    for (const e of s.events.slice(opens)) this.o.write(`    ${this.o.verbose ? '  ' : ''}${e.text}`);
  }

  /** Print `Turn N` (`Set-up` for turn 0) when the account enters turn N; the next impulse heading is then printed afresh. */
  private heading(turn: number): void {
    if (turn === this.turn) return;
    this.turn = turn;
    this.section = undefined;
    this.o.write(turn === 0 ? 'Set-up' : `Turn ${turn}`);
  }

  /** `combat ×12, capture ×3`, most frequent first. */
  eventSummary(): string {
    const all = [...this.eventCounts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    return all.length ? all.map(([t, n]) => `${t} ×${n}`).join(', ') : 'none';
  }
}

/** `Winner: Allies` / `Draw` / `Winners: A and B`, using side names from the scenario. */
export function headline(result: GameResult, scenario?: ScenarioInfo): string {
  const name = (id: string) => {
    const n = scenario?.sides.find((s) => s.id === id)?.name;
    return n && n !== id ? `${n} (${id})` : id;
  };
  const winners = Object.entries(result.sides)
    .filter(([, o]) => o === 'win')
    .map(([id]) => name(id));
  if (winners.length === 0) return 'Draw';
  return `${winners.length === 1 ? 'Winner' : 'Winners'}: ${winners.join(' and ')}`;
}

function scores(result: GameResult): string {
  return Object.entries(result.scores)
    .map(([p, v]) => `${p} ${v}`)
    .join(', ');
}

function secs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

function at(p: Position): string {
  return `turn ${p.turn}, impulse ${p.impulse} (${p.phase}${p.step ? ` / ${p.step}` : ''})`;
}

/**
 * `Strikes: Axis 1, Allies 0; time bank left: Axis 0 ms, Allies 30.00 s.` when a seat took a strike or
 * had a time bank (nothing to say otherwise).
 */
function clockLine(r: MatchResult): string | undefined {
  const strikes = r.strikesBySeat ?? {};
  const banks = r.bankMsBySeat ?? {};
  const seats = Object.keys(r.bots);
  if (!seats.some((s) => (strikes[s] ?? 0) > 0 || (banks[s] ?? 0) > 0)) return undefined;
  const list = (f: (s: string) => string) => seats.map((s) => `${s} ${f(s)}`).join(', ');
  return `Strikes: ${list((s) => String(strikes[s] ?? 0))}; time bank left: ${list((s) => secs(banks[s] ?? 0))}.`;
}

/** The closing lines of a match account: winner and why, how the match ended, and its provenance. */
export function summarize(r: MatchResult, scenario?: ScenarioInfo, events?: string): string[] {
  const out: string[] = [];
  const stats = `${r.decisions} decisions, ${r.chanceDraws} chance draws, ${r.impulses} impulses, ${secs(r.wallMs)}`;
  switch (r.kind) {
    case 'completed':
      out.push(`${headline(r.result, scenario)}. ${r.result.reason}`);
      out.push(`Ended: completed at ${at(r.position)}; ${stats}.`);
      break;
    case 'adjudicated':
      out.push(`${headline(r.result, scenario)} (adjudicated). ${r.result.reason}`);
      out.push(`Ended: adjudicated at ${at(r.position)}: the decision cap of ${r.cap} was reached; ${stats}.`);
      break;
    case 'forfeit':
      out.push(`${headline(r.result, scenario)} by forfeit. ${r.result.reason}`);
      out.push(`Ended: forfeit at ${at(r.position)}: seat ${r.seat} (${r.power}) ${r.reason}: ${r.detail}; ${stats}.`);
      break;
    case 'error':
      out.push('No result.');
      out.push(`Ended: error at ${at(r.position)}: ${r.detail}; ${stats}.`);
      break;
    case 'cancelled':
      out.push('No result.');
      out.push(`Ended: cancelled at ${at(r.position)}; ${stats}.`);
      break;
  }
  if ('result' in r) out.push(`Scores: ${scores(r.result)}; margin ${r.result.margin}.`);
  const clock = clockLine(r);
  if (clock) out.push(clock);
  if (events !== undefined) out.push(`Events: ${events}.`);
  const bots = Object.entries(r.bots)
    .map(([seat, b]) => `${seat}=${b}`)
    .join(', ');
  out.push(`Match: ${r.game} rules ${r.rulesVersion}, scenario ${r.scenario}, seed ${r.seed}, ${bots}.`);
  out.push(`Pack: ${r.pack.id}@${r.pack.version} (${r.pack.fidelity}, hash ${r.pack.hash}). Final state hash ${r.finalHash}.`);
  return out;
}
