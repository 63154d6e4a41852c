/**
 * What a regression run keeps of each game: enough to say whether it changed (the state hash after
 * every impulse), where it first changed and what happened there (the choices and events of each
 * impulse), and the figures whose distributions are compared (outcome, victory condition, lengths,
 * scores by power after each turn).
 */
import type { MatchResult, MatchRow, EventRow, ImpulseRow } from '@salient/runner';

/** One impulse of a recorded game. */
export interface ImpulseRecord {
  /** Where the impulse started: `turn.impulse phase/step`. */
  at: string;
  turn: number;
  /** State hash after the impulse. */
  hash: string;
  /** Encoded choices made during the impulse, in order. */
  choices: string[];
  /** The game's account of what happened, one line per event, in order (`POWER: text`). */
  events: string[];
  /** Score by power after the impulse. */
  scores: Record<string, number>;
}

/** One game of the suite. */
export interface GameRecord {
  /** What identifies the game in the suite whatever the code: scenario, seed and who sat where. */
  key: string;
  scenario: string;
  seed: number;
  /** Side (or seat) -> bot spec as the suite gives it. */
  seats: Record<string, string>;
  /** Seat -> `name@version` of the bot that played. */
  bots: Record<string, string>;
  /** How the match ended: completed, adjudicated, forfeit, error, cancelled. */
  kind: string;
  /** Side -> win/loss/draw, when the match was decided. */
  sides: Record<string, string>;
  /** The victory condition (the game's sentence), or the fault. */
  reason: string;
  turns: number;
  impulses: number;
  decisions: number;
  finalHash: string;
  impulseLog: ImpulseRecord[];
}

/** The key a game is matched on between two runs. */
export function gameKey(scenario: string, seed: number, seats: Readonly<Record<string, string>>): string {
  const who = Object.keys(seats)
    .sort()
    .map((s) => `${s}=${seats[s]}`)
    .join(',');
  return `${scenario} seed ${seed} ${who}`;
}

const eventLine = (e: EventRow): string => `${e.event.power ? `${e.event.power}: ` : ''}${e.event.text}`;

/**
 * Score by power after an impulse, over the powers the telemetry store files it under (those with a
 * score, control, supply or events; 0 where the game gave no score), so a record read back from a
 * tagged run in the store is the record made here.
 */
function scoresOf(i: ImpulseRow): Record<string, number> {
  const s = i.summary;
  const powers = new Set<string>();
  for (const o of [s?.scores, s?.control, s?.supply, i.eventCountsByPower]) if (o) for (const k in o) if (k !== '') powers.add(k);
  return Object.fromEntries([...powers].sort().map((p) => [p, s?.scores[p] ?? 0]));
}

/** A game's record from the rows the runner gave an in-memory sink. */
export function recordGame(
  planned: { scenario: string; seed: number; seats: Readonly<Record<string, string>> },
  result: MatchResult,
  impulses: readonly ImpulseRow[],
  events: readonly EventRow[],
): GameRecord {
  const byImpulse = new Map<number, string[]>();
  for (const e of events) {
    let list = byImpulse.get(e.impulseSeq);
    if (!list) byImpulse.set(e.impulseSeq, (list = []));
    list.push(eventLine(e));
  }
  const decided = result.kind === 'completed' || result.kind === 'adjudicated' || result.kind === 'forfeit';
  return {
    key: gameKey(planned.scenario, planned.seed, planned.seats),
    scenario: planned.scenario,
    seed: planned.seed,
    seats: { ...planned.seats },
    bots: { ...result.bots },
    kind: result.kind,
    sides: decided ? { ...result.result.sides } : {},
    reason: decided ? result.result.reason : result.kind === 'error' ? result.detail : result.kind,
    turns: result.position.turn,
    impulses: result.impulses,
    decisions: result.decisions,
    finalHash: result.finalHash,
    impulseLog: [...impulses]
      .sort((a, b) => a.seq - b.seq)
      .map((i) => ({
        at: `${i.position.turn}.${i.position.impulse} ${i.position.phase}/${i.position.step}`,
        turn: i.position.turn,
        hash: i.stateHash,
        choices: [...i.choices],
        events: byImpulse.get(i.seq) ?? [],
        scores: scoresOf(i),
      })),
  };
}

/** The match rows' facts a run reports in its header. */
export interface RunFacts {
  game: string;
  rulesVersion: string;
  pack: { id: string; version: string; fidelity: string; hash: string };
  engineVersion: string;
  /** Every `name@version` that played. */
  bots: string[];
}

export function runFacts(rows: readonly MatchRow[]): RunFacts | undefined {
  const first = rows[0];
  if (!first) return undefined;
  const bots = new Set<string>();
  for (const r of rows) for (const b of Object.values(r.result.bots)) bots.add(b);
  return { game: first.result.game, rulesVersion: first.result.rulesVersion, pack: { ...first.result.pack }, engineVersion: first.engineVersion, bots: [...bots].sort() };
}
