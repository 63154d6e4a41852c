/**
 * The external bot protocol (docs/bot-protocol.md): the messages Salient sends, and the checks on what
 * a bot answers. Transport-free: the process and HTTP transports carry these same JSON bodies.
 */
import { BotFault, type BotAnswer, type BotContext, type BotEnding, type DecisionRequest } from '@salient/runner';

/** Bumped when a message changes incompatibly; sent in `hello`. */
export const PROTOCOL_VERSION = 1;

/** Longest answer accepted (a stdout line or an HTTP body), in bytes; longer is a malformed answer. */
export const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/** How much of a bad answer a forfeit's detail quotes. */
const QUOTE_CHARS = 200;

export interface HelloMessage {
  type: 'hello';
  protocol: number;
  game: string;
  rulesVersion: string;
  scenario: string | null;
  seat: string;
  powers: string[];
  time: { decisionMs: number; bankMs: number; strikes: number } | null;
}

export interface DecideMessage {
  type: 'decide';
  /** 0-based count of this bot's decisions in the match. */
  id: number;
  power: string;
  prompt: string;
  position: DecisionRequest['position'];
  observation: unknown;
  options: readonly unknown[];
  labels: readonly string[];
  time: { decisionMs: number; bankMs: number; deadlineMs: number } | null;
}

export interface EndMessage {
  type: 'end';
  /** How the match ended: completed, adjudicated, forfeit, error, cancelled. */
  kind: BotEnding['kind'];
  /** Side id -> win / loss / draw, and the scores of the bot's own powers (absent when undecided). */
  sides?: Record<string, string>;
  scores?: Record<string, number>;
  reason?: string;
}

/** What a bot said about itself in its handshake. */
export interface BotIdentity {
  name: string;
  version: string;
}

export function helloMessage(ctx: BotContext): HelloMessage {
  return {
    type: 'hello',
    protocol: PROTOCOL_VERSION,
    game: ctx.game.id,
    rulesVersion: ctx.game.rulesVersion,
    scenario: ctx.scenario ?? null,
    seat: ctx.seat,
    powers: [...ctx.powers],
    time: ctx.time ? { ...ctx.time } : null,
  };
}

export function decideMessage(id: number, r: DecisionRequest): DecideMessage {
  return {
    type: 'decide',
    id,
    power: r.power,
    prompt: r.prompt,
    position: r.position,
    observation: r.observation,
    options: r.options,
    labels: r.labels,
    time: r.clock ? { decisionMs: r.clock.decisionMs, bankMs: r.clock.bankMs, deadlineMs: r.clock.decisionMs + r.clock.bankMs } : null,
  };
}

export function endMessage(ending: BotEnding | undefined, powers: readonly string[]): EndMessage {
  if (!ending) return { type: 'end', kind: 'cancelled' };
  const msg: EndMessage = { type: 'end', kind: ending.kind };
  if (ending.result) {
    msg.sides = { ...ending.result.sides };
    msg.scores = Object.fromEntries(powers.filter((p) => ending.result?.scores[p] !== undefined).map((p) => [p, ending.result!.scores[p]!]));
    msg.reason = ending.result.reason ?? ending.kind;
  } else msg.reason = ending.kind;
  return msg;
}

/** Parse one answer's text as a JSON object, or fault (`illegal`) quoting what was sent. */
export function parseAnswerText(text: string, what: string): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new BotFault('illegal', `sent ${quote(text)} in answer to ${what}, which is not JSON; answer with one JSON object per line`);
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    throw new BotFault('illegal', `sent ${quote(text)} in answer to ${what}, which is not a JSON object`);
  }
  return v as Record<string, unknown>;
}

/**
 * The name and version a handshake answer gives, when both are non-empty strings, whatever else is
 * wrong with it: a bot refused for another reason is still recorded as what it said it is.
 */
export function helloIdentity(answer: Record<string, unknown>): BotIdentity | undefined {
  const { name, version } = answer;
  return typeof name === 'string' && name !== '' && typeof version === 'string' && version !== '' ? { name, version } : undefined;
}

/**
 * Check a handshake answer: `{ type: 'hello', name, version, games }`. A bot whose `games` does not
 * list the game (or `*`) cannot play it: a `crash` forfeit saying which games it supports.
 */
export function checkHello(answer: Record<string, unknown>, game: string): BotIdentity {
  const { type, games } = answer;
  const identity = helloIdentity(answer);
  const text = JSON.stringify(answer);
  if (type !== 'hello' || !identity) {
    throw new BotFault(
      'crash',
      `answered the hello with ${quote(text)}; expected {"type":"hello","name":"...","version":"...","games":["${game}"]}`,
    );
  }
  if (!Array.isArray(games) || !games.every((g) => typeof g === 'string')) {
    throw new BotFault('crash', `answered the hello with ${quote(text)}; "games" must be a list of game ids (or ["*"])`);
  }
  if (!games.includes(game) && !games.includes('*')) {
    throw new BotFault('crash', `does not support game ${game}; its hello lists ${games.length ? games.join(', ') : 'no games'}`);
  }
  return identity;
}

/**
 * Turn a `choice` answer into a runner answer; the runner checks the index range. `index` and `label`
 * may both be sent only when they name the same option: a bot whose two say different things has a
 * bug, and playing either one would hide it.
 */
export function checkChoice(answer: Record<string, unknown>, request: DecisionRequest): BotAnswer {
  const { type, index, label, rationale } = answer;
  const why = typeof rationale === 'string' ? { rationale } : {};
  if (type !== 'choice' || (index === undefined && label === undefined)) {
    throw new BotFault('illegal', `answered ${quote(JSON.stringify(answer))}; expected {"type":"choice","index":n} or {"type":"choice","label":"..."}`);
  }
  if (index !== undefined && typeof index !== 'number') throw new BotFault('illegal', `answered index ${quote(JSON.stringify(index))}, which is not a number`);
  if (label === undefined) return { index: index as number, ...why };
  if (typeof label !== 'string') throw new BotFault('illegal', `answered label ${quote(JSON.stringify(label))}, which is not a string`);
  const i = request.labels.indexOf(label);
  if (i < 0) throw new BotFault('illegal', `answered label ${quote(JSON.stringify(label))}, which is not among the ${request.labels.length} legal options`);
  if (index !== undefined && index !== i) {
    const named = request.labels[index as number];
    throw new BotFault(
      'illegal',
      `answered index ${index}${named === undefined ? '' : ` (${quote(named)})`} and label ${quote(label)}, which is option ${i}; send one of them, or both for the same option`,
    );
  }
  return { index: i, ...why };
}

/** `text` cut to a readable length, in quotes. */
export function quote(text: string): string {
  const t = text.length > QUOTE_CHARS ? `${text.slice(0, QUOTE_CHARS)}... (${text.length} chars)` : text;
  return `'${t}'`;
}
