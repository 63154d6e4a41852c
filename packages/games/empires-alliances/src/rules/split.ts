/**
 * 13.3 split attacks, 13.62 artillery and tank pairing, 13.63 the order of resolution, 13.73 a pair's
 * No Decision. Hooked into the combat of flow.ts after the attacker's `go` (13.61: the hex and every
 * attacking unit are designated):
 *
 * 1. 13.62: the defender may pair each of its Artillery (Field or Siege) and Tank units in the hex with
 *    one of its Inf/Cav there, at most one Artillery and one Tank per Inf/Cav (`pair A,I`, then `done`).
 *    Asked only when the hex holds both kinds. A pair is attacked as one unit.
 * 2. 13.3: with two or more defending groups (an Inf/Cav with its partners, or an unpaired unit) and two
 *    or more attacking Inf/Cav, the attacker may split: he builds one attack at a time, adding defending
 *    groups (`on D`, D the group's Inf/Cav or lone unit) and attacking units (`with U`), closes it with
 *    `next` (allowed when it is legal, 13.641/13.652, and what is left can still attack all that is left
 *    at 1-5 or better, so every defender is attacked, 13.3), or ends with `all`: the attack being built
 *    takes every unit and group not yet assigned (always legal: the whole attack was).
 * 3. 13.63: the attacks are resolved one at a time in the order designated.
 * 4. 13.73: on an ND, if the defender loses a unit of a pair, its partners still in the hex retreat and
 *    are demoralized.
 */
import type { Board, SideNo } from './board.ts';
import { attackMixLegal } from './combat.ts';
import { assess, unitsAt } from './flow.ts';
import type { EaState } from './state.ts';
import { isArtillery, isInfCav } from './units.ts';

/** Support kind for 13.62: 1 Artillery, 2 Tank, 0 neither. */
const supportKind = (b: Board, u: number): number => {
  const t = b.units[u]!.prof.type;
  return isArtillery(t) ? 1 : t === 'tank' ? 2 : 0;
};

/** 13.62: the pairings the defender may still make in the combat's hex, as [support, infcav] pairs, ascending. */
export function pairOptions(b: Board, s: EaState): [number, number][] {
  const cb = s.cb!;
  const out: [number, number][] = [];
  const paired = new Set<number>();
  for (let i = 0; i < cb.pairs.length; i += 2) paired.add(cb.pairs[i]!);
  for (const a of cb.def) {
    const k = supportKind(b, a);
    if (k === 0 || paired.has(a)) continue;
    for (const i of cb.def) {
      if (!isInfCav(b.units[i]!.prof.type)) continue;
      let taken = false;
      for (let j = 0; j < cb.pairs.length; j += 2) if (cb.pairs[j + 1] === i && supportKind(b, cb.pairs[j]!) === k) taken = true;
      if (!taken) out.push([a, i]);
    }
  }
  return out;
}

/** The defending groups (13.62): each Inf/Cav with its partners, each unpaired unit alone; keyed by their first unit, ascending. */
export function groups(b: Board, s: EaState, def: readonly number[]): number[][] {
  const cb = s.cb!;
  const partnerOf = new Map<number, number>();
  for (let i = 0; i < cb.pairs.length; i += 2) partnerOf.set(cb.pairs[i]!, cb.pairs[i + 1]!);
  const byLead = new Map<number, number[]>();
  for (const u of [...def].sort((x, y) => x - y)) {
    const lead = partnerOf.get(u) ?? u;
    if (!def.includes(lead)) continue;
    const g = byLead.get(lead) ?? [];
    g.push(u);
    byLead.set(lead, g);
  }
  void b;
  return [...byLead.entries()].sort((x, y) => x[0] - y[0]).map(([lead, g]) => [lead, ...g.filter((u) => u !== lead)]);
}

/** 13.641, 13.652: whether `att` may attack `def` in the combat's hex as one attack. */
function legal(b: Board, s: EaState, att: readonly number[], def: readonly number[]): boolean {
  if (att.length === 0 || def.length === 0) return false;
  if (!attackMixLegal(att.map((u) => b.units[u]!.prof.type))) return false;
  return assess(b, s, s.cb!.hex, att, def).col >= 0;
}

/** After `go`: ask the defender to pair (13.62) if it can, else go on to the split. Returns false when the combat should start at once. */
export function openPairing(b: Board, s: EaState): boolean {
  const cb = s.cb!;
  cb.def = unitsAt(b, s, cb.hex);
  if (cb.def.length === 0) return false; // 13.651: a lone fort
  if (pairOptions(b, s).length) {
    s.ask = { k: 'pair', side: (1 - s.seg) as SideNo };
    return true;
  }
  return openSplit(b, s);
}

/** Ask the attacker how to split (13.3) if the hex has two groups and he has two Inf/Cav; false to resolve one attack on the whole hex. */
export function openSplit(b: Board, s: EaState): boolean {
  const cb = s.cb!;
  const gs = groups(b, s, cb.def);
  const infcav = cb.att.filter((u) => isInfCav(b.units[u]!.prof.type)).length;
  if (gs.length < 2 || infcav < 2) return false;
  cb.pool = [...cb.att];
  cb.left = [...cb.def];
  cb.sa = [];
  cb.sd = [];
  s.ask = { k: 'split' };
  return true;
}

/** The split question's options (13.3), canonical order: `on D` by group, `with U` by unit, then `next`, `all`. */
export function splitOptions(b: Board, s: EaState): string[] {
  const cb = s.cb!;
  const out: string[] = [];
  const gs = groups(b, s, cb.left);
  if (gs.length >= 2) for (const g of gs) out.push(`on ${g[0]}`);
  for (const u of cb.pool) out.push(`with ${u}`);
  if (gs.length >= 1 && cb.sd.length && legal(b, s, cb.sa, cb.sd) && legal(b, s, cb.pool, cb.left)) out.push('next');
  out.push('all');
  return out;
}

/** Play a split choice. Returns true when the designation is complete and the attacks are queued (cb.queue). */
export function playSplit(b: Board, s: EaState, choice: string): boolean {
  const cb = s.cb!;
  const [verb, arg] = choice.split(' ');
  if (verb === 'on') {
    const g = groups(b, s, cb.left).find((x) => x[0] === Number(arg))!;
    cb.sd.push(...g);
    cb.left = cb.left.filter((u) => !g.includes(u));
    return false;
  }
  if (verb === 'with') {
    const u = Number(arg);
    cb.sa.push(u);
    cb.pool = cb.pool.filter((x) => x !== u);
    return false;
  }
  if (verb === 'next') {
    cb.queue.push({ att: sortUp(cb.sa), def: sortUp(cb.sd) });
    cb.sa = [];
    cb.sd = [];
    return false;
  }
  // all
  cb.queue.push({ att: sortUp([...cb.sa, ...cb.pool]), def: sortUp([...cb.sd, ...cb.left]) });
  cb.sa = [];
  cb.sd = [];
  cb.pool = [];
  cb.left = [];
  return true;
}

const sortUp = (xs: number[]): number[] => xs.sort((x, y) => x - y);

/** Take the next designated attack off the queue into cb.att/cb.def (13.63); false when none is left. */
export function takeNextAttack(s: EaState): boolean {
  const cb = s.cb!;
  const next = cb.queue.shift();
  if (!next) return false;
  cb.att = next.att;
  cb.def = next.def;
  return true;
}

/** 13.73: the units, still on the map, that defended together with a unit just lost on an ND. */
export function ndPartners(b: Board, s: EaState, lost: readonly number[]): number[] {
  const out: number[] = [];
  for (const g of groups(b, s, s.cb!.def)) {
    if (g.length < 2 || !g.some((u) => lost.includes(u))) continue;
    for (const u of g) if (!lost.includes(u) && s.hex[u]! >= 0) out.push(u);
  }
  return out.sort((x, y) => x - y);
}
