/** Test helpers over the Game on the synthetic front: start, play choices, skip phases, place units. */
import { empiresAlliances as game } from '../../src/game.ts';
import { boardOf, type Board } from '../../src/rules/board.ts';
import type { EaState } from '../../src/rules/state.ts';
import { FRONT_SCHEMES, frontPack, type FrontScheme } from './front-map.ts';

const packs = new Map<FrontScheme, ReturnType<typeof game.checkPack> & { ok: true }>();
/** The checked synthetic-front pack in `scheme`, built once per scheme. */
export function packFor(scheme: FrontScheme = 'rrcc-skewed'): (ReturnType<typeof game.checkPack> & { ok: true })['pack'] {
  let c = packs.get(scheme);
  if (!c) {
    const checked = game.checkPack(frontPack(scheme));
    if (!checked.ok) throw new Error(checked.issues.map((i) => `${i.path}: ${i.message}`).join('\n'));
    packs.set(scheme, (c = checked));
  }
  return c.pack;
}
export const pack = packFor('rrcc-skewed');

/** The schemes game-level tests run under (`describe.each(SCHEMES)`): the test map's own and the shipped map's `rrcc-offset-even`. */
export const SCHEMES: readonly FrontScheme[] = FRONT_SCHEMES;
export type { FrontScheme };

/** A new S3 game (optionally with rulings) on the synthetic front in `scheme`, on the pack's fixed deal (S3 3.4 set-up skipped), and its board. */
export function start(rulings?: string, scheme: FrontScheme = 'rrcc-skewed'): { s: EaState; b: Board } {
  const s = game.setup('1918', packFor(scheme), rulings ? { rulings, deploy: 'deal' } : { deploy: 'deal' });
  return { s, b: boardOf(s.key) };
}

/** Play choices in order; returns the last state and every event. */
export function play(s: EaState, ...choices: string[]): { s: EaState; events: { type: string; text: string; data?: Record<string, unknown> }[] } {
  const events: { type: string; text: string; data?: Record<string, unknown> }[] = [];
  for (const c of choices) {
    const st = game.apply(s, c);
    s = st.state;
    events.push(...(st.events as typeof events));
  }
  return { s, events };
}

/** Like `play`, but answers `done` to any replacement purchase (17.24) the script does not make, also after its last choice. */
export function playNoBuys(s: EaState, ...choices: string[]): { s: EaState; events: { type: string; text: string; data?: Record<string, unknown> }[] } {
  const events: { type: string; text: string; data?: Record<string, unknown> }[] = [];
  for (const c of [...choices, '']) {
    while (s.ask.k === 'buy' && !c.startsWith('buy ')) {
      const st = game.apply(s, 'done');
      s = st.state;
      events.push(...(st.events as typeof events));
    }
    if (c === '') break;
    const st = game.apply(s, c);
    s = st.state;
    events.push(...(st.events as typeof events));
  }
  return { s, events };
}

/** The options now. */
export function opts(s: EaState): string[] {
  const p = game.pending(s);
  return p.kind === 'decision' ? [...p.options] : p.kind === 'chance' ? p.outcomes.map((o) => o.outcome) : [];
}

/** Answer `done` (and `die 5` to any die) until `pred` holds. */
export function skipUntil(s: EaState, pred: (s: EaState) => boolean, die = 'die 5'): EaState {
  for (let i = 0; i < 10000 && !pred(s); i++) {
    const p = game.pending(s);
    if (p.kind === 'terminal') break;
    const o = opts(s);
    s = game.apply(s, p.kind === 'chance' ? die : o.includes('done') ? 'done' : o.includes('stay') ? 'stay' : o[0]!).state;
  }
  return s;
}

/** Units matching a nation/type (and optionally a hex), by number. */
export function unitsOf(b: Board, s: EaState, f: { nation?: string; type?: string; hex?: string; side?: 0 | 1 }): number[] {
  const out: number[] = [];
  for (let u = 0; u < s.hex.length; u++) {
    const d = b.units[u]!;
    if (f.nation && d.nation !== f.nation) continue;
    if (f.type && d.prof.type !== f.type) continue;
    if (f.side !== undefined && d.side !== f.side) continue;
    if (f.hex && (s.hex[u]! < 0 || b.map.id(s.hex[u]!) !== f.hex)) continue;
    out.push(u);
  }
  return out;
}

/** Clear the map of every unit but `keep` (to the pool), then put units where wanted. */
export function arrange(b: Board, s: EaState, place: Record<number, string>, keepOthers = false): EaState {
  const t = JSON.parse(JSON.stringify(s)) as EaState;
  if (!keepOthers) for (let u = 0; u < t.hex.length; u++) if (t.hex[u]! >= 0 && !(u in place)) t.hex[u] = -1;
  for (const [u, id] of Object.entries(place)) {
    t.hex[Number(u)] = b.map.hex(id);
    t.ent[Number(u)] = 0;
  }
  return t;
}

export { game };

/** The printed id of the hex next to `id` in direction `dir` (E, NE, NW, W, SW, SE) on the board's own grid, so a test reads the same under both schemes. */
export function nb(b: Board, id: string, dir: 'E' | 'NE' | 'NW' | 'W' | 'SW' | 'SE'): string {
  const h = b.map.grid.neighbour(b.map.hex(id), ['E', 'NE', 'NW', 'W', 'SW', 'SE'].indexOf(dir));
  return b.map.id(h);
}
