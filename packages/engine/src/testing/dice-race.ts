/**
 * Dice Race: a tiny synthetic game used to test the engine, runner and bots without any real rules.
 * Two powers, `red` (side `A`) and `blue` (side `B`), take turns. On your turn you either `roll` (a d6
 * is added to your pot, a 1 empties the pot and ends your turn) or `bank` (pot goes to your score).
 * First to `target` (default 20) wins; after `maxTurns` turns the higher score wins, ties are draws.
 * Fidelity: synthetic.
 */
import type { Game, GameResult, JsonObject, LoadedPack, Pending } from '../contract.ts';
import { IllegalChoiceError, SalientError, unknownName } from '../errors.ts';
import { hashJson } from '../hash.ts';

export interface DiceRaceState {
  [k: string]: number | string | boolean | { [p: string]: number } | null;
  /** The turn, from 1; red moves first in each. */
  turn: number;
  /** The power whose turn it is. */
  active: 'red' | 'blue';
  /** Points rolled this turn and not banked yet (a 1 loses them). */
  pot: number;
  /** A roll was chosen and its die is still to be drawn (never so when a bot is asked). */
  rolling: boolean;
  /** Banked points of each power. */
  scores: { [p: string]: number };
  /** The score that wins at once (option `target`, default 20). */
  target: number;
  /** After this many turns the higher score wins (option `maxTurns`, default 30). */
  maxTurns: number;
  /** The power that reached the target, once one has. */
  winner: string | null;
}

export type DiceRaceChoice = 'roll' | 'bank' | `die:${number}`;

const POWERS = ['red', 'blue'] as const;
const SIDE_OF: Record<string, string> = { red: 'A', blue: 'B' };

const packData = { id: 'synthetic', version: '1', fidelity: 'synthetic' as const };

function loadPack(): LoadedPack {
  return {
    info: { ...packData, hash: hashJson(packData), description: 'Synthetic pack for the Dice Race test game' },
    data: packData,
  };
}

function resultOf(s: DiceRaceState, reason: string): GameResult {
  const r = s.scores.red ?? 0;
  const b = s.scores.blue ?? 0;
  const sides = r === b ? { A: 'draw', B: 'draw' } : r > b ? { A: 'win', B: 'loss' } : { A: 'loss', B: 'win' };
  return { sides: sides as GameResult['sides'], scores: { red: r, blue: b }, margin: Math.abs(r - b), reason };
}

export const diceRace: Game<DiceRaceState, DiceRaceChoice, DiceRaceState> = {
  id: 'dice-race',
  name: 'Dice Race (synthetic test game)',
  rulesVersion: '1',
  streams: ['dice'],
  bundledPacks: { synthetic: packData },
  prompts: {
    'roll-or-bank': { asks: 'roll the die again (a 1 loses the pot and ends the turn) or bank the pot and end the turn', options: '`roll`, and `bank` once the pot holds points' },
  },
  checkPack(raw) {
    if (typeof raw === 'object' && raw !== null && (raw as { id?: unknown }).id === 'synthetic') return { ok: true, pack: loadPack() };
    return { ok: false, issues: [{ path: '$.id', message: "expected 'synthetic'" }] };
  },
  scenarios() {
    return [
      {
        id: 'standard',
        name: 'Standard race',
        summary: 'First to 20 points wins; after 30 turns the higher score wins.',
        sides: [
          { id: 'A', name: 'Red', powers: ['red'] },
          { id: 'B', name: 'Blue', powers: ['blue'] },
        ],
      },
    ];
  },
  setup(scenario, _pack, options: JsonObject = {}) {
    if (scenario !== 'standard') throw unknownName('UNKNOWN_SCENARIO', 'scenario', scenario, ['standard']);
    const unknown = Object.keys(options).filter((k) => k !== 'target' && k !== 'maxTurns');
    if (unknown.length) throw new SalientError('BAD_OPTION', `Dice Race takes the options target and maxTurns; got: ${unknown.join(', ')}. Remove the others.`);
    const target = options.target ?? 20;
    const maxTurns = options.maxTurns ?? 30;
    if (typeof target !== 'number' || typeof maxTurns !== 'number') {
      throw new SalientError('BAD_OPTION', 'options.target and options.maxTurns must be numbers');
    }
    return { turn: 1, active: 'red', pot: 0, rolling: false, scores: { red: 0, blue: 0 }, target, maxTurns, winner: null };
  },
  pending(s): Pending<DiceRaceChoice> {
    if (s.winner !== null || s.turn > s.maxTurns) return { kind: 'terminal', result: this.result(s) };
    if (s.rolling) {
      return { kind: 'chance', stream: 'dice', prompt: 'die', outcomes: [1, 2, 3, 4, 5, 6].map((n) => ({ outcome: `die:${n}` as const, p: 1 / 6 })) };
    }
    return { kind: 'decision', power: s.active, prompt: 'roll-or-bank', options: s.pot > 0 ? ['roll', 'bank'] : ['roll'] };
  },
  apply(s, choice) {
    const p = this.pending(s);
    const ok = p.kind === 'decision' ? p.options.includes(choice) : p.kind === 'chance' && p.outcomes.some((o) => o.outcome === choice);
    if (!ok) throw new IllegalChoiceError(`'${choice}' is not legal now`);
    const next: DiceRaceState = { ...s, scores: { ...s.scores } };
    const endTurn = () => {
      next.pot = 0;
      next.rolling = false;
      next.active = next.active === 'red' ? 'blue' : 'red';
      if (next.active === 'red') next.turn++;
    };
    if (choice === 'roll') {
      next.rolling = true;
      return { state: next, events: [] };
    }
    if (choice === 'bank') {
      next.scores[s.active] = (s.scores[s.active] ?? 0) + s.pot;
      const events = [{ type: 'bank', power: s.active, text: `${s.active} banks ${s.pot}`, data: { points: s.pot } }];
      if ((next.scores[s.active] ?? 0) >= s.target) next.winner = s.active;
      endTurn();
      return { state: next, events, boundary: next.active === 'red' ? 'turn' : 'impulse' };
    }
    const die = Number(choice.slice(4));
    next.rolling = false;
    if (die === 1) {
      const events = [{ type: 'bust', power: s.active, text: `${s.active} rolls a 1 and loses a pot of ${s.pot}`, data: { lost: s.pot } }];
      endTurn();
      return { state: next, events, boundary: next.active === 'red' ? 'turn' : 'impulse' };
    }
    next.pot += die;
    return { state: next, events: [] };
  },
  observe(s) {
    return s;
  },
  position(s) {
    return { turn: s.turn, impulse: s.active === 'red' ? 1 : 2, phase: s.active, step: s.rolling ? 'roll' : 'decide' };
  },
  result(s) {
    return resultOf(s, s.winner ? `${s.winner} reached ${s.target} points` : `turn limit reached; higher score wins`);
  },
  adjudicate(s) {
    return resultOf(s, 'decision cap reached; scored by current score');
  },
  encode(c) {
    return c;
  },
  decode(t) {
    if (t === 'roll' || t === 'bank' || /^die:[1-6]$/.test(t)) return t as DiceRaceChoice;
    throw new IllegalChoiceError(`'${t}' is not a Dice Race choice`);
  },
  model: {
    sample: (obs) => obs,
    evaluate: (s, power) => {
      const other = power === 'red' ? 'blue' : 'red';
      const mine = (s.scores[power] ?? 0) + (s.active === power ? s.pot * 0.8 : 0);
      return mine - (s.scores[other] ?? 0) + (s.winner === power ? 1000 : s.winner ? -1000 : 0);
    },
  },
};

/** The synthetic pack, loaded. */
export const diceRacePack = loadPack();
export const DICE_RACE_SIDES = SIDE_OF;
export const DICE_RACE_POWERS = POWERS;
