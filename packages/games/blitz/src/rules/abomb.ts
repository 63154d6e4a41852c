/**
 * The A-Bomb (7.3, 7.8, E.5; carried into a land combat by 5.3, 6.1 and 6.5; Join Atomic Club, 8).
 *
 * At the builds a power whose scenario lists an A-Bomb for it (`aBomb` in the pack) may, from the
 * pack's turn, take it as its weapon pick of the turn (7.3; the Weapons Development Charts are not in
 * the text, so the turn is an estimate). It then sits on the track at box 5. Every turn, the pick's
 * turn included, it may be developed once (1 Resource, one box down, never below 1) and tested once
 * (1 Resource, a die above the box succeeds; one more on the die once an enemy major power has
 * A-bombed an area the power controls). Once tested it may be built in a home land area of the power;
 * built again later (after use or loss) it needs no test. All of this is secret like the rest of the
 * builds (1.9): the steps are held in `hidden` and reach the open `aBomb` record at the reveal.
 *
 * An air unit of the power with Strategic Factors of at least 4 may pick the bomb up where it lies, also in
 * the middle of a rebase (`carry a-bomb` at the start or at a stop on the way, movement.ts); the bomb then
 * lies where the rebase ends (our reading: between combats it lies in an area, so a carrier lost away
 * from a combat does not take it along). An air unit so able, based where the bomb lies, may carry it
 * into a land combat it attacks in (5.3; for Germany also a V-Weapon with 4, which flies only in
 * Factory Attacks and, never in an Air Round, always gets through to the target; it is used up in the
 * Strategic Round after the bomb has gone off). The bomb sits out the Air Round and shares its carrier's fate (6.1, 6.5): destroyed with
 * it, home again if the carrier is turned back. If the carrier comes through, the bomb goes off over
 * the target before the Land, Strategic or port Naval Round. What it does there is on the Unit Types
 * Chart, which the text lacks: the pack's estimate (each defending land unit loses Size, the Factory
 * is wrecked). A used bomb goes back to the Force Pool.
 */
import { IllegalChoiceError } from '@salient/engine';
import { emit, landName, unitName, type Events } from './events.ts';
import { landDef, scenarioDef, type PackIndex } from './pack-index.ts';
import { controllerSide, face, isAir, isLand, sideOf, typeOf, unitsAt } from './query.ts';
import { fired } from './sections.ts';
import { spentOf } from './economy.ts';
import { areaInSupply, homeCountries } from './supply.ts';
import type { Ask, Attack, BlitzState, CombatState, UnitState } from './state.ts';

/** The `unit` of the A-Bomb's secret entries in `hidden`; their `at` says which step. */
const BOMB = 'a-bomb';
const PICK = 'a-bomb-pick';
const DEVELOP = 'a-bomb-develop';
const TEST = 'a-bomb-test';
/** `a-bomb@<land>`: built, to be placed there at the reveal. */
const BUILD = 'a-bomb@';

const defOf = (p: PackIndex, s: BlitzState) => scenarioDef(p, s.scenario).aBomb;
const steps = (s: BlitzState, power: string) => (s.hidden[power] ?? []).filter((h) => h.unit === BOMB);
const stepDone = (s: BlitzState, power: string, at: string) => steps(s, power).some((h) => (at === BUILD ? h.at.startsWith(BUILD) : h.at === at));

/** Whether a secret entry of the builds belongs to the A-Bomb (revealed by `revealABombs`, not as a unit). */
export const isABombStep = (h: { unit: string }): boolean => h.unit === BOMB;

/** 7.3: `power` took its A-Bomb as this turn's weapon pick, so it picks nothing else this turn. */
export const aBombPickedNow = (s: BlitzState, power: string): boolean => stepDone(s, power, PICK);

/** `power`'s A-Bomb as the power itself sees it during its builds: the open record plus its own secret steps. */
export function trackOf(p: PackIndex, s: BlitzState, power: string): { picked: boolean; box: number; tested: boolean; built: boolean } | null {
  const d = defOf(p, s);
  if (!d?.powers[power]) return null;
  const open = s.aBomb?.[power];
  const picked = open !== undefined || stepDone(s, power, PICK);
  const box = Math.max(1, (open?.box ?? d.startBox) - (stepDone(s, power, DEVELOP) ? 1 : 0));
  const tested = open?.tested !== undefined || steps(s, power).some((h) => h.at === TEST && h.ok);
  const built = (open?.at !== undefined && !lostSite(p, s, power)) || stepDone(s, power, BUILD);
  return { picked, box, tested, built };
}

/**
 * A built bomb lying in a land area its side no longer holds is lost, as the units an enemy overruns
 * would be: the text does not say, so this is our reading. It may then be built again (no test).
 */
function lostSite(p: PackIndex, s: BlitzState, power: string): boolean {
  const at = s.aBomb?.[power]?.at;
  return at !== undefined && !at.startsWith('carrier:') && controllerSide(p, s, at) !== sideOf(p, s, power);
}

/** Home land areas where `power` may place a new A-Bomb: held by it, in play and in supply (7.8, 1.7). */
function bombSites(p: PackIndex, s: BlitzState, power: string): string[] {
  const homes = homeCountries(p, s, power);
  return scenarioDef(p, s.scenario)
    .lands.filter((l) => s.control[l] === power && homes.has(landDef(p, l).country) && areaInSupply(p, s, power, landDef(p, l).country, l, 'power'))
    .sort();
}

/**
 * 7.3/7.8: the A-Bomb choices open to `power` at its builds: `abomb pick` (instead of any other
 * weapon pick this turn), `abomb develop`, `abomb test`, `abomb build LAND`.
 */
export function aBombOptions(p: PackIndex, s: BlitzState, power: string): string[] {
  const t = trackOf(p, s, power);
  if (!t) return [];
  const d = defOf(p, s)!;
  const left = (s.res[power] ?? 0) - spentOf(s, power);
  const out: string[] = [];
  const pickedThisTurn = (s.hidden[power] ?? []).some((h) => h.at === 'pool');
  if (!t.picked && s.turn >= d.powers[power]!.fromTurn && !pickedThisTurn) out.push('abomb pick');
  if (t.picked && !t.tested && t.box > 1 && !stepDone(s, power, DEVELOP) && left >= 1) out.push('abomb develop');
  if (t.picked && !t.tested && !stepDone(s, power, TEST) && left >= 1) out.push('abomb test');
  if (t.tested && !t.built && left >= d.size) out.push(...bombSites(p, s, power).map((l) => `abomb build ${l}`));
  return out;
}

/** Apply an `abomb ...` choice of `power`'s builds; false when `c` is not one. */
export function applyABombChoice(p: PackIndex, s: BlitzState, power: string, c: string): boolean {
  if (!c.startsWith('abomb ')) return false;
  if (!aBombOptions(p, s, power).includes(c)) throw new IllegalChoiceError(`'${c}' is not an A-Bomb step ${power} can take now`);
  const hidden = (s.hidden[power] ??= []);
  const [, verb, land] = c.split(' ') as [string, string, string | undefined];
  if (verb === 'pick') {
    fired('7.3', s.scenario);
    hidden.push({ unit: BOMB, size: 0, at: PICK });
  } else if (verb === 'develop') hidden.push({ unit: BOMB, size: 1, at: DEVELOP });
  else if (verb === 'test') {
    hidden.push({ unit: BOMB, size: 1, at: TEST });
    s.aBombTest = { power };
  } else hidden.push({ unit: BOMB, size: defOf(p, s)!.size, at: `${BUILD}${land!}` });
  fired('7.8', s.scenario);
  return true;
}

/** 7.8: the test die (a chance node on the research stream, like research's). */
export function askABombTest(): Ask {
  return { kind: 'chance', prompt: 'a-bomb-test', stream: 'research', faces: 6 };
}

/** 7.8: the test succeeds if the die (+1 once an enemy major power has A-bombed this power) beats the box. */
export function applyABombTest(p: PackIndex, s: BlitzState, die: number): void {
  const power = s.aBombTest!.power;
  delete s.aBombTest;
  const bonus = s.aBombed?.includes(power) ? 1 : 0;
  const entry = steps(s, power).find((h) => h.at === TEST)!;
  entry.ok = die + bonus > trackOf(p, s, power)!.box;
}

/** 1.9: at the reveal, each power's A-Bomb steps of this turn reach the open record, in the order taken. */
export function revealABombs(p: PackIndex, s: BlitzState, ev: Events): void {
  const d = defOf(p, s);
  if (!d) return;
  for (const power of Object.keys(s.hidden).sort()) {
    const mine = steps(s, power);
    if (!mine.length) continue;
    const all = (s.aBomb = { ...s.aBomb });
    let t = all[power] ? { ...all[power]! } : { box: d.startBox };
    for (const h of mine) {
      if (h.at === PICK) {
        t = { box: d.startBox };
        emit(ev, 'a-bomb', `${power} takes its A-Bomb as its weapon pick: it is on the track at box ${t.box}`, power, { step: 'pick', box: t.box });
      } else if (h.at === DEVELOP) {
        t.box = Math.max(1, t.box - 1);
        emit(ev, 'a-bomb', `${power} develops its A-Bomb: box ${t.box}`, power, { step: 'develop', box: t.box });
      } else if (h.at === TEST) {
        if (h.ok) t.tested = s.turn;
        emit(ev, 'a-bomb', `${power} tests its A-Bomb at box ${t.box}: ${h.ok ? 'success' : 'failure'}`, power, { step: 'test', box: t.box, success: h.ok === true });
      } else {
        t.at = h.at.slice(BUILD.length);
        emit(ev, 'a-bomb', `${power} builds its A-Bomb in ${landName(p, t.at)}`, power, { step: 'build', at: t.at });
      }
    }
    all[power] = t;
  }
}

/** 8 Join Atomic Club: the ladder's points for `power` if its first successful test was this turn (joiners of one turn share the best place). */
export function atomicClubPoints(s: BlitzState, power: string, ladder: readonly number[]): number {
  if (s.aBomb?.[power]?.tested !== s.turn) return 0;
  const before = Object.values(s.aBomb).filter((x) => x.tested !== undefined && x.tested < s.turn).length;
  return ladder[Math.min(before, ladder.length - 1)] ?? 0;
}

// ---------------------------------------------------------------- 5.3, 6.1, 6.5: carriage and use

/** An air unit's Strategic Factor (Unit Types Chart): printed, or half its primary bombing factor (as combat.ts reads it). */
function strategic(p: PackIndex, s: BlitzState, id: string): number {
  const u = s.units[id]!;
  const f = face(p, u);
  if (f.strategic !== undefined) return f.strategic;
  const primary = p.unit.get(u.def)?.primary;
  return primary ? (f[primary] ?? 0) / 2 : 0;
}

/**
 * The land area where `power`'s built A-Bomb lies: where it was placed, or the base of a carrier that
 * took it along but is no longer in a combat (its attack never came to blows); none while on a mission.
 */
function bombLand(p: PackIndex, s: BlitzState, power: string): string | undefined {
  const at = s.aBomb?.[power]?.at;
  if (lostSite(p, s, power)) return undefined;
  if (!at?.startsWith('carrier:')) return at;
  const u = s.units[at.slice('carrier:'.length)];
  return u && u.committed === undefined && p.land.has(u.at) ? u.at : undefined;
}

/**
 * 5.3: `abomb UNIT` for each air unit committed to attack `a` that may carry the power's built A-Bomb:
 * Strategic Factors of at least the pack's minimum, based in the land area where the bomb lies.
 */
export function carryOptions(p: PackIndex, s: BlitzState, a: Attack): string[] {
  const d = defOf(p, s);
  const at = bombLand(p, s, s.power);
  if (!d || !at) return [];
  return a.attackers.filter((x) => s.units[x]!.power === s.power && isAir(p, s.units[x]!) && s.units[x]!.from === at && strategic(p, s, x) >= d.carrierStrategic).map((x) => `abomb ${x}`);
}

/**
 * 7.8: whether air unit `id` may pick up its power's built A-Bomb where it is now (Strategic Factors of at
 * least the pack's minimum; the bomb lying in that land area): also in the middle of a rebase (movement.ts).
 */
export function mayPickUp(p: PackIndex, s: BlitzState, id: string, at: string = s.units[id]!.at): boolean {
  const d = defOf(p, s);
  const u = s.units[id]!;
  return d !== undefined && isAir(p, u) && bombLand(p, s, u.power) === at && !s.aBomb![u.power]!.at!.startsWith('carrier:') && strategic(p, s, id) >= d.carrierStrategic;
}

/** The land area where `power`'s built A-Bomb lies, if it lies in one (not on a mission, not lost). */
export function bombAt(p: PackIndex, s: BlitzState, power: string): string | undefined {
  const at = bombLand(p, s, power);
  return at && !s.aBomb![power]!.at!.startsWith('carrier:') ? at : undefined;
}

/** 7.8: a carrier that picked up its power's A-Bomb on a rebase sets it down where the rebase ends. */
export function setDownBomb(p: PackIndex, s: BlitzState, id: string, to: string, ev: Events): void {
  const power = s.units[id]!.power;
  s.aBomb = { ...s.aBomb, [power]: { ...s.aBomb![power]!, at: to } };
  fired('7.8', s.scenario);
  emit(ev, 'a-bomb', `${unitName(p, id)} carries ${power}'s A-Bomb to ${landName(p, to)}`, power, { step: 'carried', unit: id, at: to });
}

/** 5.3: the carrier takes the A-Bomb along into its combat. */
export function carryBomb(p: PackIndex, s: BlitzState, unit: string, ev: Events): void {
  const a = s.attacks[s.units[unit]?.committed ?? -1];
  if (!a || !carryOptions(p, s, a).includes(`abomb ${unit}`)) throw new IllegalChoiceError(`${unit} cannot carry an A-Bomb now`);
  s.aBomb = { ...s.aBomb, [s.power]: { ...s.aBomb![s.power]!, at: `carrier:${unit}` } };
  fired('5.3', s.scenario);
  emit(ev, 'a-bomb', `${unitName(p, unit)} carries ${s.power}'s A-Bomb to ${landName(p, a.target)}`, s.power, { step: 'carry', unit, target: a.target });
}

/** The power whose A-Bomb `unit` carries, if any. */
const bombOf = (s: BlitzState, unit: string): string | undefined => Object.keys(s.aBomb ?? {}).find((pw) => s.aBomb![pw]!.at === `carrier:${unit}`);

/** 6.5: a destroyed carrier takes its A-Bomb with it (back to the Force Pool; it is rebuilt with no test). */
export function carrierLost(p: PackIndex, s: BlitzState, unit: string, ev: Events): void {
  const power = bombOf(s, unit);
  if (!power) return;
  const { at: _gone, ...rest } = s.aBomb![power]!;
  s.aBomb = { ...s.aBomb, [power]: rest };
  fired('6.5', s.scenario);
  emit(ev, 'a-bomb', `${power}'s A-Bomb is destroyed with ${unitName(p, unit)}`, power, { step: 'lost', unit });
}

/**
 * 6.1/6.5: after the Air Round (or at once if there was none), a bomb whose carrier is still in the
 * combat goes off over the target; a carrier turned back brings it home. `hit` takes one Size off a unit.
 */
export function detonate(p: PackIndex, s: BlitzState, c: CombatState, ev: Events, hit: (id: string) => void): void {
  const d = defOf(p, s);
  if (!d || !s.aBomb) return;
  const a = s.attacks[c.attack]!;
  for (const power of Object.keys(s.aBomb).sort()) {
    const at: string | undefined = s.aBomb[power]!.at;
    if (!at?.startsWith('carrier:')) continue;
    const carrier: string = at.slice('carrier:'.length);
    const u: UnitState = s.units[carrier]!;
    if (u.committed !== c.attack) continue;
    if (c.sidelined.includes(carrier)) {
      // 6.1: the bomb shares whatever the Air Round did to its carrier: turned back, it goes home too.
      s.aBomb = { ...s.aBomb, [power]: { ...s.aBomb[power]!, at: u.at } };
      emit(ev, 'a-bomb', `${power}'s A-Bomb turns back with ${unitName(p, carrier)}`, power, { step: 'turned-back', unit: carrier });
      continue;
    }
    const { at: _used, ...rest } = s.aBomb[power]!;
    s.aBomb = { ...s.aBomb, [power]: rest };
    const target = a.target;
    // Estimate (pack `aBomb`): every defending land unit loses Size, except AA, which is never damaged (1.2).
    const side = sideOf(p, s, power);
    const victims = unitsAt(s, target).filter(([, x]) => isLand(p, x) && typeOf(p, x) !== 'AA' && sideOf(p, s, x.power) !== side).map(([id]) => id).sort();
    const factory = landDef(p, target).factory;
    const wrecked = d.wreckFactory && factory > 0 ? factory - (s.factoryDamage?.[target] ?? 0) : 0;
    if (wrecked > 0) (s.factoryDamage ??= {})[target] = factory;
    const owner = s.control[target];
    if (owner && scenarioDef(p, s.scenario).powers.some((x) => x.id === owner) && !(s.aBombed ?? []).includes(owner)) s.aBombed = [...(s.aBombed ?? []), owner].sort();
    fired('7.8', s.scenario);
    emit(ev, 'a-bomb', `${power}'s A-Bomb goes off over ${landName(p, target)}${wrecked > 0 ? `: its Factory is wrecked` : ''}`, power, { step: 'detonation', target, units: victims, factoryDamage: wrecked });
    for (const id of victims) for (let i = 0; i < d.landLosses && s.units[id]!.at === target; i++) hit(id);
  }
}
