/**
 * March: the smallest game we could make where a power must spend one impulse on a set-up that pays
 * only in its next one, with a decoy that pays a little at once. Defined through the game contract only,
 * for the planner's test.
 *
 * Two powers, `blue` (side A) and `red` (side B), two turns; in each turn blue has an impulse, then red.
 * Blue's impulse is up to `LEG` decisions, each `advance` (one more column on the road), `hold`,
 * `dither` (both do nothing) or `grab` (one point at once, and the impulse ends). At the impulse's end
 * the columns on the road arrive before the enemy's fort. In blue's second impulse, if all `LEG` columns
 * stand before the fort, `strike` takes it (ten points). Red only waits. Red starts with three points:
 * blue wins with more than three.
 *
 * The evaluation is what a heuristic for such a game would say: points, a little for each column at
 * the fort and a clear threat when the whole force is there, and a column still on the road is exposed
 * (worth less than nothing until it arrives). So the march looks bad at every step until the impulse
 * ends, and the grab looks good at once: greedy grabs (1 + 1 points: a loss), a tree over single
 * decisions sees the march only six decisions deep, and a planner over whole impulses finds it.
 */
import { IllegalChoiceError, hashJson, type Game, type GameResult, type LoadedPack, type Pending } from '@salient/engine';

export const LEG = 6;

export interface MarchState {
  [k: string]: number | boolean | null;
  turn: number;
  /** Blue's impulse (true) or red's. */
  blue: boolean;
  /** Decisions blue has made in this impulse. */
  made: number;
  /** Columns on the road (this impulse) and before the fort. */
  road: number;
  fort: number;
  blueScore: number;
  redScore: number;
  over: boolean;
}

type Choice = 'advance' | 'hold' | 'dither' | 'grab' | 'strike' | 'wait';

const packData = { id: 'march', version: '1', fidelity: 'synthetic' as const };
const pack: LoadedPack = { info: { ...packData, hash: hashJson(packData), description: 'March test game' }, data: packData };

function result(s: MarchState): GameResult {
  const won = s.blueScore > s.redScore;
  return { sides: { A: won ? 'win' : 'loss', B: won ? 'loss' : 'win' }, scores: { blue: s.blueScore, red: s.redScore }, margin: Math.abs(s.blueScore - s.redScore), reason: 'more points after two turns' };
}

export const march: Game<MarchState, Choice, MarchState> = {
  id: 'march',
  name: 'March (test game)',
  rulesVersion: '1',
  streams: [],
  bundledPacks: { march: packData },
  checkPack: () => ({ ok: true, pack }),
  scenarios: () => [{ id: 'standard', name: 'March', summary: 'Two turns; strike the fort.', sides: [{ id: 'A', name: 'Blue', powers: ['blue'] }, { id: 'B', name: 'Red', powers: ['red'] }] }],
  setup: () => ({ turn: 1, blue: true, made: 0, road: 0, fort: 0, blueScore: 0, redScore: 3, over: false }),
  pending(s): Pending<Choice> {
    if (s.over) return { kind: 'terminal', result: result(s) };
    if (!s.blue) return { kind: 'decision', power: 'red', prompt: 'wait', options: ['wait'] };
    const options: Choice[] = ['advance', 'hold', 'dither', 'grab'];
    if (s.fort >= LEG) options.push('strike');
    return { kind: 'decision', power: 'blue', prompt: 'order', options };
  },
  apply(s, choice) {
    const p = this.pending(s);
    if (p.kind !== 'decision' || !p.options.includes(choice)) throw new IllegalChoiceError(`'${choice}' is not legal now`);
    const n: MarchState = { ...s };
    if (choice === 'wait') {
      n.blue = true;
      n.turn++;
      n.over = n.turn > 2;
      return { state: n, events: [], boundary: 'turn' };
    }
    n.made++;
    if (choice === 'advance') n.road++;
    if (choice === 'grab') n.blueScore++;
    if (choice === 'strike') {
      n.blueScore += 10;
      n.fort = 0;
    }
    if (choice === 'grab' || choice === 'strike' || n.made >= LEG) {
      n.fort += n.road;
      n.road = 0;
      n.made = 0;
      n.blue = false;
      return { state: n, events: [], boundary: 'impulse' };
    }
    return { state: n, events: [] };
  },
  observe: (s) => s,
  position: (s) => ({ turn: s.turn, impulse: s.blue ? 1 : 2, phase: s.blue ? 'blue' : 'red', step: 'order' }),
  result,
  adjudicate: result,
  encode: (c) => c,
  decode: (t) => t as Choice,
  model: {
    sample: (obs) => obs,
    evaluate(s, power) {
      const sign = power === 'blue' ? 1 : -1;
      if (s.over) return sign * (s.blueScore > s.redScore ? 1000 : -1000);
      return sign * (s.blueScore - s.redScore + 0.5 * s.fort + (s.fort >= LEG ? 4 : 0) - s.road);
    },
  },
};

export const marchPack = pack;
