/**
 * Asking a bot for one decision under a time budget, and turning whatever it answers into an option
 * index or a forfeit reason. Bots are untrusted: they may throw, hang, or answer nonsense, and none of
 * that may take the runner down.
 */
import type { Bot, DecisionRequest, ForfeitReason } from './types.ts';

/**
 * What a bot throws (or rejects with) to forfeit with a given reason and a sentence saying what it did
 * wrong; any other error is a `crash`. External bots use it for malformed answers (`illegal`).
 */
export class BotFault extends Error {
  override readonly name = 'BotFault';
  constructor(
    readonly reason: ForfeitReason,
    message: string,
  ) {
    super(message);
  }
}

/** A seat's time bank and strikes, updated in place as the match goes. */
export interface SeatClock {
  bankMs: number;
  /** Strikes allowed (the last one forfeits) and strikes taken so far. */
  strikes: number;
  struck: number;
  /** Decisions the seat was asked so far (an external bot's `decide` ids count the same way). */
  asked: number;
  /** The answer the bot still owes after its last strike, until the runner has seen it come. */
  late?: LateAnswer | undefined;
}

/** An answer the runner stopped waiting for at a strike, which the bot is still working on. */
interface LateAnswer {
  /** The seat's decision count at that decision (an external bot's `decide` id). */
  id: number;
  /** `k of N`. */
  strike: string;
  /** The runner's clock (`now`) when it stops waiting for it, and how long after the strike that is. */
  untilMs: number;
  graceMs: number;
}

/** What came of asking: a legal option index, a forfeit, or the match being cancelled meanwhile. */
export type AskOutcome =
  | { kind: 'chose'; index: number; thinkMs: number; rationale?: string; strike?: number }
  | { kind: 'forfeit'; reason: ForfeitReason; detail: string; thinkMs: number }
  | { kind: 'cancelled'; thinkMs: number };

export interface AskOptions {
  timeoutMs: number;
  now: () => number;
  /** The match's cancel signal, if any. */
  signal: AbortSignal | undefined;
  /** `Game.encode`, to match `{ choice }` answers against the offered labels. */
  encode: (choice: unknown) => string;
  /** The seat's abort signal for the bot (see {@link BotStop}). */
  stop: BotStop;
  /** The seat's bank and strikes; absent: no bank, and the first overrun forfeits. */
  clock?: SeatClock;
  /**
   * After a strike, the least time the runner waits for the late answer (the handshake timeout); it
   * waits at least the late decision's own deadline too. Default 10 000.
   */
  lateGraceMs?: number;
}

const DEFAULT_LATE_GRACE_MS = 10_000;

/**
 * The signal a seat's bot is handed with each decision, aborted when the runner stops listening to
 * an answer (a timeout, a crash, the match cancelled) and then replaced by a fresh one. One per seat
 * rather than one per decision: making an AbortController costs more than a random bot's decision.
 */
export class BotStop {
  private ctrl: AbortController | undefined;
  get signal(): AbortSignal {
    return (this.ctrl ??= new AbortController()).signal;
  }
  abort(reason: string): void {
    this.ctrl?.abort(reason);
    this.ctrl = undefined;
  }
}

type Waited = { kind: 'answer'; answer: unknown } | { kind: 'crash'; error: unknown } | { kind: 'timeout' } | { kind: 'cancelled' };

/**
 * Ask `bot` to choose among `request.options`. Never throws (nor rejects). A bot that still owes the
 * answer to a decision it took a strike on is asked only once that answer came: the time it spent on
 * it is not charged to this decision (one slow answer is one strike, not two).
 *
 * The outcome comes back as it is when the bot answers synchronously (a random bot answers tens of
 * thousands of times a second, and a promise and its awaits per decision cost more than its answer);
 * as a promise when the bot answers with one or still owes a late answer. Callers `await` either.
 */
export function askBot(bot: Bot, request: DecisionRequest, o: AskOptions): AskOutcome | Promise<AskOutcome> {
  const late = o.clock?.late;
  if (late && o.clock) {
    o.clock.late = undefined;
    return askAfterLate(bot, request, o, late);
  }
  return askNow(bot, request, o);
}

async function askAfterLate(bot: Bot, request: DecisionRequest, o: AskOptions, late: LateAnswer): Promise<AskOutcome> {
  const owed = await awaitLateAnswer(bot, late, o);
  if (owed) return owed;
  return await askNow(bot, request, o);
}

/** Ask now: the outcome at once for a synchronous answer (or a throw), a promise of it otherwise. */
function askNow(bot: Bot, request: DecisionRequest, o: AskOptions): AskOutcome | Promise<AskOutcome> {
  const id = o.clock ? o.clock.asked++ : 0;
  const signal = o.stop.signal;
  const bankMs = o.clock?.bankMs ?? 0;
  const limitMs = o.timeoutMs + bankMs;
  const t0 = o.now();
  let out: unknown;
  try {
    out = bot.decide(request, signal);
  } catch (error) {
    return settle(request, o, { kind: 'crash', error }, id, bankMs, limitMs, o.now() - t0);
  }
  if (!isThenable(out)) return settled(request, o, out, bankMs, limitMs, o.now() - t0);
  return raceAnswer(out, limitMs, o.signal).then((waited) => settle(request, o, waited, id, bankMs, limitMs, o.now() - t0));
}

/** The outcome of what the bot did (answered, crashed, ran out of time, or the match was cancelled meanwhile). */
function settle(request: DecisionRequest, o: AskOptions, waited: Waited, id: number, bankMs: number, limitMs: number, thinkMs: number): AskOutcome {
  // Tell a bot we stopped listening to, so it can stop working.
  if (waited.kind !== 'answer') o.stop.abort(waited.kind);
  switch (waited.kind) {
    case 'cancelled':
      return { kind: 'cancelled', thinkMs };
    case 'crash':
      if (waited.error instanceof BotFault) return { kind: 'forfeit', reason: waited.error.reason, detail: `${waited.error.message} ${whereAsked(request)}`, thinkMs };
      return { kind: 'forfeit', reason: 'crash', detail: `crashed ${whereAsked(request)}: ${errorText(waited.error)}`, thinkMs };
    case 'timeout': {
      const outcome = overrun(`did not answer within ${budget(o, bankMs, limitMs)}`, whereAsked(request), thinkMs, o.clock);
      // The bot is still at work on it: its next decision waits for that answer (`awaitLateAnswer`).
      if (outcome.kind === 'chose' && o.clock) {
        const graceMs = Math.max(limitMs, o.lateGraceMs ?? DEFAULT_LATE_GRACE_MS);
        o.clock.late = { id, strike: `${o.clock.struck} of ${o.clock.strikes}`, untilMs: o.now() + graceMs, graceMs };
      }
      return outcome;
    }
    case 'answer':
      return settled(request, o, waited.answer, bankMs, limitMs, thinkMs);
  }
}

/** The outcome of an answer the bot gave in `thinkMs`. */
function settled(request: DecisionRequest, o: AskOptions, answer: unknown, bankMs: number, limitMs: number, thinkMs: number): AskOutcome {
  // Not made when all is well: a fast game asks tens of thousands of decisions a second.
  // A synchronous bot cannot be interrupted, but it still has to keep to the budget.
  if (thinkMs > limitMs) return overrun(`took ${Math.round(thinkMs)} ms, over the ${budget(o, bankMs, limitMs)} budget,`, whereAsked(request), thinkMs, o.clock);
  const picked = answerIndex(answer, request, o.encode);
  if (typeof picked === 'string') return { kind: 'forfeit', reason: 'illegal', detail: `${picked} ${whereAsked(request)}`, thinkMs };
  if (o.clock) o.clock.bankMs = Math.max(0, bankMs - Math.max(0, thinkMs - o.timeoutMs));
  const rationale = rationaleOf(answer);
  return rationale === undefined ? { kind: 'chose', index: picked, thinkMs } : { kind: 'chose', index: picked, thinkMs, rationale };
}

/** Where a bot went wrong, for forfeit details: `at move-unit (12 options)`. */
function whereAsked(request: DecisionRequest): string {
  return `at ${request.prompt} (${request.options.length} options)`;
}

/** The budget a bot overran, for forfeit details. */
function budget(o: AskOptions, bankMs: number, limitMs: number): string {
  return bankMs > 0 ? `${limitMs} ms (${o.timeoutMs} ms + ${bankMs} ms bank)` : `${o.timeoutMs} ms`;
}

/**
 * A decision that used up its budget and the bank: a strike. The last allowed strike forfeits; an
 * earlier one plays the first offered option (a fixed rule, so replays and reruns agree) and empties the bank.
 */
function overrun(what: string, at: string, thinkMs: number, clock: SeatClock | undefined): AskOutcome {
  const strikes = clock?.strikes ?? 1;
  const k = (clock?.struck ?? 0) + 1;
  if (clock) {
    clock.struck = k;
    clock.bankMs = 0;
  }
  if (k >= strikes) {
    const which = strikes > 1 ? ` (strike ${k} of ${strikes})` : '';
    return { kind: 'forfeit', reason: 'timeout', detail: `${what} ${at}${which}`, thinkMs };
  }
  return { kind: 'chose', index: 0, thinkMs, strike: k, rationale: `timeout strike ${k} of ${strikes}: the bot ${what} ${at}; the runner played the first option` };
}

/**
 * Wait, before a seat's next decision, for the answer its bot still owes since a strike: until the
 * bot says it is idle, or `late.untilMs`. Undefined when the bot is ready; otherwise the outcome of
 * this decision (a forfeit, or the match cancelled). The wait is nobody's think time.
 */
async function awaitLateAnswer(bot: Bot, late: LateAnswer, o: AskOptions): Promise<AskOutcome | undefined> {
  if (!bot.idle) return undefined;
  const idle = bot.idle.bind(bot);
  const waited = await waitForBot(() => idle(o.stop.signal), Math.max(0, late.untilMs - o.now()), o.signal);
  if (waited.kind !== 'answer') o.stop.abort(waited.kind);
  const owed = `its late answer to decision ${late.id} (timeout strike ${late.strike})`;
  switch (waited.kind) {
    case 'answer':
      return undefined;
    case 'cancelled':
      return { kind: 'cancelled', thinkMs: 0 };
    case 'timeout':
      return {
        kind: 'forfeit',
        reason: 'timeout',
        detail: `still owed ${owed} ${late.graceMs} ms after the strike; a bot must answer every decision, and Salient waits for a late answer (as long again as that decision's deadline, at least the handshake timeout) before it asks the next`,
        thinkMs: 0,
      };
    case 'crash':
      if (waited.error instanceof BotFault) return { kind: 'forfeit', reason: waited.error.reason, detail: `${waited.error.message}, while Salient waited for ${owed}`, thinkMs: 0 };
      return { kind: 'forfeit', reason: 'crash', detail: `crashed while Salient waited for ${owed}: ${errorText(waited.error)}`, thinkMs: 0 };
  }
}

/** What came of a bot's `start`: ready, a forfeit, or the match cancelled meanwhile. */
export type StartOutcome = { kind: 'ready' } | { kind: 'forfeit'; reason: ForfeitReason; detail: string } | { kind: 'cancelled' };

/** Run `bot.start` (if it has one) under `timeoutMs`. Never throws. */
export async function startBot(bot: Bot, o: { timeoutMs: number; signal: AbortSignal | undefined; stop: BotStop }): Promise<StartOutcome> {
  if (!bot.start) return { kind: 'ready' };
  const start = bot.start.bind(bot);
  const waited = await waitForBot(() => start(o.stop.signal), o.timeoutMs, o.signal);
  if (waited.kind !== 'answer') o.stop.abort(waited.kind);
  switch (waited.kind) {
    case 'answer':
      return { kind: 'ready' };
    case 'cancelled':
      return { kind: 'cancelled' };
    case 'timeout':
      return { kind: 'forfeit', reason: 'timeout', detail: `did not get ready (handshake) within ${o.timeoutMs} ms` };
    case 'crash':
      if (waited.error instanceof BotFault) return { kind: 'forfeit', reason: waited.error.reason, detail: waited.error.message };
      return { kind: 'forfeit', reason: 'crash', detail: `failed to start: ${errorText(waited.error)}` };
  }
}

/** Run `decide`, racing an async answer against the budget and the match's cancel signal. */
async function waitForBot(decide: () => unknown, timeoutMs: number, signal: AbortSignal | undefined): Promise<Waited> {
  let out: unknown;
  try {
    out = decide();
  } catch (error) {
    return { kind: 'crash', error };
  }
  if (!isThenable(out)) return { kind: 'answer', answer: out };
  return await raceAnswer(out, timeoutMs, signal);
}

/** An async answer raced against the budget and the match's cancel signal. */
async function raceAnswer(out: PromiseLike<unknown>, timeoutMs: number, signal: AbortSignal | undefined): Promise<Waited> {
  // Handling the rejection here also keeps a late rejection (after a timeout) from going unhandled.
  const answered = Promise.resolve(out).then(
    (answer): Waited => ({ kind: 'answer', answer }),
    (error: unknown): Waited => ({ kind: 'crash', error }),
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const timedOut = new Promise<Waited>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'timeout' }), timeoutMs);
  });
  const cancelled = new Promise<Waited>((resolve) => {
    if (!signal) return;
    if (signal.aborted) return resolve({ kind: 'cancelled' });
    onAbort = () => resolve({ kind: 'cancelled' });
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([answered, timedOut, cancelled]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}

/** The option index a bot's answer designates, or a sentence saying why it designates none. */
export function answerIndex(answer: unknown, request: DecisionRequest, encode: (choice: unknown) => string): number | string {
  const n = request.options.length;
  if (typeof answer === 'number') return checkIndex(answer, n);
  if (typeof answer === 'object' && answer !== null) {
    if ('index' in answer) return checkIndex(answer.index, n);
    if ('choice' in answer) {
      let text: string;
      try {
        text = encode(answer.choice);
      } catch (e) {
        return `answered a choice the game cannot encode (${errorText(e)})`;
      }
      const i = request.labels.indexOf(text);
      return i >= 0 ? i : `answered '${text}', which is not among the legal options (${preview(request.labels)})`;
    }
  }
  return `answered ${describe(answer)}, which is neither an option index, { index }, nor { choice }`;
}

/** `i` if it is a legal index among `n` options, else a sentence saying why not. */
function checkIndex(i: unknown, n: number): number | string {
  return typeof i === 'number' && Number.isInteger(i) && i >= 0 && i < n ? i : `answered index ${describe(i)}, but the legal indexes are 0..${n - 1}`;
}

function isThenable(x: unknown): x is PromiseLike<unknown> {
  return (typeof x === 'object' || typeof x === 'function') && x !== null && typeof (x as { then?: unknown }).then === 'function';
}

function describe(x: unknown): string {
  try {
    return JSON.stringify(x) ?? String(x);
  } catch {
    return String(x);
  }
}

function preview(labels: readonly string[]): string {
  return labels.slice(0, 8).join(', ') + (labels.length > 8 ? ', ...' : '');
}

/** An error's message, whatever was thrown. */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : describe(e);
}

/** The bot's stated reason, when its answer is an object with a string `rationale`. */
function rationaleOf(answer: unknown): string | undefined {
  if (typeof answer !== 'object' || answer === null) return undefined;
  const r = (answer as { rationale?: unknown }).rationale;
  return typeof r === 'string' ? r : undefined;
}
