/**
 * Oil and Resources by 7.6 (D.9), with Lend Lease (7.4, D.8), Trade Agreements (7.5) and a scenario's
 * Resource drain (D's Second Front), for scenarios that switch on `areaIncome`:
 *   1. the Oil and Resources of the land areas a power controls outside its home countries, where it
 *      can trace supply (1.7: a line to Oil and Resources may cross neutral land; a power with a
 *      `fixedIncome` entry gets that instead);
 *   2 and 3. less one per Partisan in them and one per point of damage on its Convoys (Resources
 *      first, never below 0: these losses can take only what step 1 brought in);
 *   4. its home countries' Oil and Resources;
 *   trades: a neutral minor's Oil or Resources while it stays neutral, and the trades between majors,
 *      each only while its recipient can trace supply to the country it comes from (step 5);
 *   5. Lend Lease: each of its LL units at sea in its named sea, with supply from the unit's home
 *      country to that sea and a friendly land area on that sea from which the recipient can trace
 *      supply home (across neutral land too), hands over its Size, as much of it Oil as its giver chose at the turn end's secret
 *      Lend Lease step (`lendLeaseOffers`, flow.ts; Resources first where it had no choice); delivery
 *      is mandatory; China's takes a Resource only;
 *   the scenario's drain (Resources first);
 *   6. less one per point of Factory damage in its areas (Resources first), and the damage is cleared.
 * Unspent Oil and Resources are saved for the next turn (D.9).
 */
import { emit, landName, unitName, type Events } from './events.ts';
import { landDef, scenarioDef, unitDef, type PackIndex } from './pack-index.ts';
import { friendlyLand, isLand, onMap, sideOf, typeOf, unitsAt } from './query.ts';
import { homeCountries, landsReachedFrom, suppliedAreas, suppliedSeas, usesSupply } from './supply.ts';
import { fired } from './sections.ts';
import { isNeutral } from './neutrality.ts';
import { rtwOn } from './road-to-war.ts';
import { mainHomes as mainHomesOf } from './liberation.ts';
import { atWar as atWarPair } from './wars.ts';
import type { Ask, BlitzState } from './state.ts';

export interface Purse {
  oil: number;
  res: number;
  /** What made it up, for the income event (signed amounts by source). */
  lines: Record<string, number>;
  /** E.4: income only units of one home may use (China's; an isolated ally's, 7.6), by home. */
  earmark: Record<string, number>;
  /** 7.6: the land areas whose Oil and Resources went to an isolated ally (land -> that ally's country). */
  isolated?: Record<string, string>;
}

/** Take `n` from a purse, Resources first, never below 0; returns what was actually taken. */
function take(x: Purse, n: number, line: string): { res: number; oil: number } {
  const res = Math.min(x.res, n);
  const oil = Math.min(x.oil, n - res);
  x.res -= res;
  x.oil -= oil;
  if (res + oil) x.lines[line] = (x.lines[line] ?? 0) - res - oil;
  return { res, oil };
}

function give(x: Purse, got: { res: number; oil: number }, line: string): void {
  x.res += got.res;
  x.oil += got.oil;
  if (got.res + got.oil) x.lines[line] = (x.lines[line] ?? 0) + got.res + got.oil;
}

/** Whether a power of `nations` builds units of home country `home` (the USA: China's). */
const runsUnitsOf = (p: PackIndex, nations: readonly string[], home: string): boolean => [...p.unit.values()].some((u) => u.home === home && nations.includes(u.nation));

const anyHome = (p: PackIndex, s: BlitzState, power: string): string => [...homeCountries(p, s, power)][0] ?? '';

/**
 * 7.6 step 1 and the isolated ally: which of `power`'s areas outside its main home countries count, and
 * for whom. The main homes are its home countries less the remote ones (the AFA's dominions); an
 * allied country (a remote home, or the home of units it runs, China's apart) where it holds areas but
 * none that a supply line from the main homes reaches is isolated: the areas a supply line from that
 * country reaches, and the main homes do not, are its. Returns what the main homes reach (null: as
 * `suppliedAreas`, there being no remote home) and the isolated allies' areas.
 */
function incomeReach(p: PackIndex, s: BlitzState, power: string, nations: readonly string[], restricted: ReadonlySet<string>): { main: ReadonlySet<string>; mainHomes: ReadonlySet<string>; allies: Map<string, string> } {
  const homes = homeCountries(p, s, power);
  // 7.6 steps 1 and 4, 3.4: the main homes are the home countries that are not remote, a conquered
  // one's place taken by the new home of its units (Canada for the British units after Great Britain's
  // fall: liberation.ts); the other remote homes count as outside them.
  let mainHomes = mainHomesOf(p, s, power, homes);
  let remote = new Set([...homes].filter((c) => !mainHomes.has(c) && p.files.map.countries.some((x) => x.id === c && x.remoteHome)));
  // A power holding no area of any main home (Great Britain fallen with no British unit left to need a
  // new home, France fallen too) counts all its home countries as home, not none.
  const holds = (c: string) => (p.countryLands.get(c) ?? []).some((l) => s.control[l] === power);
  if (![...mainHomes].some(holds)) {
    remote = new Set();
    mainHomes = homes;
  }
  const main = remote.size ? landsReachedFrom(p, s, power, mainHomes) : suppliedAreas(p, s, power, anyHome(p, s, power), 'income');
  const allies = new Map<string, string>();
  if (!usesSupply(p, s)) return { main, mainHomes, allies };
  const candidates = new Set(remote);
  for (const u of p.unit.values()) if (nations.includes(u.nation) && !homes.has(u.home)) candidates.add(u.home);
  const held = (c: string) => (p.countryLands.get(c) ?? []).filter((l) => s.control[l] === power);
  for (const c of [...candidates].sort()) {
    if (restricted.has(c)) continue; // China: its own rule (E.4, 7.8)
    const lands = held(c);
    if (!lands.length || lands.some((l) => main.has(l))) continue;
    fired('7.6', s.scenario);
    for (const l of landsReachedFrom(p, s, power, new Set([c]))) {
      if (s.control[l] === power && !main.has(l) && !mainHomes.has(landDef(p, l).country) && !allies.has(l)) allies.set(l, c);
    }
  }
  return { main, mainHomes, allies };
}

/** This turn's new Oil and Resources of every power (7.6), Lend Lease moved and Factory damage cleared. */
export function turnIncome(p: PackIndex, s: BlitzState, ev: Events): Record<string, Purse> {
  const purses = incomeBeforeLendLease(p, s, ev);
  // 7.4: each delivery's Oil is what its giver chose (`llOil`), else Resources first.
  lendLease(p, s, purses, ev, (id, lo, hi) => Math.min(hi, Math.max(lo, s.llOil?.[id] ?? lo)));
  incomeAfterLendLease(p, s, purses);
  return purses;
}

/** 7.5's Trade Agreements; with 9.2, those the Road to War's options made instead. */
export const tradesOf = (p: PackIndex, s: BlitzState): readonly { from: string; to: string; oil: number; resources: number; giver?: string | undefined; endsAtItsWar?: number | undefined }[] =>
  rtwOn(s) ? (s.rtwTrades ?? []) : (scenarioDef(p, s.scenario).trades ?? []);

/** 7.5: a neutral minor's trade is in force while the minor is neutral: none of its land areas in play is held by anyone. */
export function minorTrading(p: PackIndex, s: BlitzState, country: string): boolean {
  return (p.countryLands.get(country) ?? []).every((l) => !(l in s.control) || s.control[l] === 'neutral');
}

/** 7.6 up to Lend Lease: steps 1 to 4, the trades, and the Partisans' and Convoys' losses. */
function incomeBeforeLendLease(p: PackIndex, s: BlitzState, ev: Events): Record<string, Purse> {
  const sc = scenarioDef(p, s.scenario);
  const purses: Record<string, Purse> = {};
  const restricted = new Map((sc.restrictedIncome ?? []).map((r) => [r.country, r.home] as const));
  // 7.6 steps 4 and 5 (home countries, trades) come after the Partisans' and Convoys' losses (steps 2
  // and 3), which can therefore take only what step 1 brought in.
  const later: { x: Purse; got: { res: number; oil: number }; line: string; trade?: boolean }[] = [];
  for (const pw of sc.powers) {
    const x: Purse = { oil: 0, res: 0, lines: {}, earmark: {} };
    const fixed = sc.fixedIncome?.[pw.id];
    if (fixed) give(x, { res: fixed.resources, oil: fixed.oil }, 'chart');
    else {
      const homes = homeCountries(p, s, pw.id);
      const { main: supplied, mainHomes, allies } = incomeReach(p, s, pw.id, pw.nations, new Set(restricted.values()));
      // 7.6: a home country outside the main ones (the AFA's dominions) counts as step 1's.
      const remote = (c: string) => !mainHomes.has(c);
      for (const land of sc.lands) {
        if (s.control[land] !== pw.id) continue;
        const l = landDef(p, land);
        const ally = allies.get(land);
        if (ally !== undefined) {
          // 7.6: an isolated ally's Oil and Resources, for its units only (steps 2 and 6 on them below).
          if (l.resources + l.oil) {
            x.earmark[ally] = (x.earmark[ally] ?? 0) + l.resources + l.oil;
            x.lines[`for ${ally} units`] = (x.lines[`for ${ally} units`] ?? 0) + l.resources + l.oil;
          }
          (x.isolated ??= {})[land] = ally;
          continue;
        }
        // 7.6 step 1: outside the home countries (the AFA's dominions counting as outside), supply needed.
        if (remote(l.country) && !supplied.has(land)) continue;
        const r = restricted.get(l.country);
        if (r && runsUnitsOf(p, pw.nations, r)) {
          // E.4, 7.8: China's Oil and Resources held by the side running China (the Allies) go to Chinese
          // units only, and only with one of them in the area. An enemy holding them (Japan in Peking)
          // counts them as any conquest's, below.
          const native = unitsAt(s, land).some(([, u]) => u.power === pw.id && isLand(p, u) && unitDef(p, u.def).home === r);
          if (native && l.resources + l.oil) {
            x.earmark[r] = (x.earmark[r] ?? 0) + l.resources + l.oil;
            x.lines[`for ${r} units`] = (x.lines[`for ${r} units`] ?? 0) + l.resources + l.oil;
          }
          continue;
        }
        const got = { res: l.resources, oil: l.oil };
        // Step 4: the main homes, with the new home of British units even where it is a minor ally's (3.4, d).
        if (!remote(l.country)) later.push({ x, got, line: 'home' }); // step 4
        else give(x, got, homes.has(l.country) ? 'home' : 'conquests');
      }
    }
    const j = sc.japanEntry;
    if (j && j.bonus.power === pw.id && !s.japanAtWar) later.push({ x, got: { res: j.bonus.resources, oil: j.bonus.oil }, line: 'pacific' }); // F: until Japan goes to war
    for (const t of tradesOf(p, s)) {
      if (t.to !== pw.id || t.giver) continue;
      if (minorTrading(p, s, t.from) && tradeReaches(p, s, pw.id, t.from)) {
        later.push({ x, got: { res: t.resources, oil: t.oil }, line: `trade:${t.from}`, trade: true });
      }
    }
    purses[pw.id] = x;
  }
  partisanLosses(s, purses);
  // 7.6 step 3: Convoy damage (in the short scenarios with a chart income it did not count, C.7).
  for (const c of p.files.map.convoys ?? []) {
    const dmg = s.convoys?.[c.id] ?? 0;
    const owner = sc.powers.find((x) => x.nations.includes(c.nation));
    if (dmg > 0 && owner) take(purses[owner.id]!, dmg, 'convoy damage');
  }
  // Steps 4 and 5: the home countries, then the trades.
  for (const l of later) {
    give(l.x, l.got, l.line);
    if (l.trade) fired('7.5', s.scenario);
  }
  majorTrades(p, s, purses, ev);
  return purses;
}

/** 7.6 after Lend Lease: a scenario's drain, then step 6, Factory damage. */
function incomeAfterLendLease(p: PackIndex, s: BlitzState, purses: Record<string, Purse>): void {
  const sc = scenarioDef(p, s.scenario);
  for (const d of sc.resourceDrain ?? []) {
    if (s.turn < d.fromTurn) continue;
    const n = Math.min(d.max, d.perTurn * (s.turn - d.fromTurn + 1));
    if (purses[d.power]) take(purses[d.power]!, n, 'drain');
  }
  // 7.6 step 6: Factory damage in each power's areas, then cleared everywhere.
  for (const [land, dmg] of Object.entries(s.factoryDamage ?? {}).sort()) {
    const owner = s.control[land];
    if (owner && purses[owner]) loseAt(purses[owner]!, land, dmg, 'factory damage');
  }
  fired('7.6', s.scenario);
}

/** A Lend Lease delivery whose giver may choose how much of it is Oil: from `lo` to `hi` Oil (7.4). */
export interface LendLeaseOffer {
  unit: string;
  power: string;
  size: number;
  lo: number;
  hi: number;
}

/**
 * 7.4: the deliveries this turn end whose giver has a choice between Oil and Resources (not China's,
 * which takes a Resource only), in the order they are made, each with the range of Oil it may hold,
 * worked out on a copy of the state with the choices made so far (`llOil`) and the rest Resources first.
 */
export function lendLeaseOffers(p: PackIndex, s: BlitzState): LendLeaseOffer[] {
  const t = structuredClone(s);
  const purses = incomeBeforeLendLease(p, t, []);
  const out: LendLeaseOffer[] = [];
  lendLease(p, t, purses, [], (id, lo, hi) => {
    if (hi > lo) out.push({ unit: id, power: t.units[id]!.power, size: t.units[id]!.size, lo, hi });
    return Math.min(hi, Math.max(lo, s.llOil?.[id] ?? lo));
  });
  return out;
}

/**
 * 7.5: a major power's trade (F: the USSR's Oil to Germany) is paid from the giver's income, outside its
 * 7.7 limit, until the two are at war or the giver's It's War! marker reaches the box that ends it.
 */
function majorTrades(p: PackIndex, s: BlitzState, purses: Record<string, Purse>, ev: Events): void {
  for (const [i, t] of tradesOf(p, s).entries()) {
    if (!t.giver || (s.tradesEnded ?? []).includes(i) || !purses[t.giver] || !purses[t.to]) continue;
    const atWar = s.wars ? atWarPair(p, s, t.giver, t.to) : !isNeutral(s, t.giver) && sideOf(p, s, t.giver) !== sideOf(p, s, t.to);
    if (atWar || (t.endsAtItsWar !== undefined && (s.itsWar?.[t.giver] ?? 0) >= t.endsAtItsWar)) {
      (s.tradesEnded ??= []).push(i);
      emit(ev, 'trade-ends', `The ${t.giver} trade to ${t.to} ends for good`, t.giver, { giver: t.giver, to: t.to });
      continue;
    }
    if (!tradeReaches(p, s, t.to, t.from)) continue; // 7.6 step 5: not this turn; the trade stands
    const giver = purses[t.giver]!;
    const oil = Math.min(t.oil, giver.oil);
    const res = Math.min(t.resources, giver.res);
    giver.oil -= oil;
    giver.res -= res;
    giver.lines[`trade to ${t.to}`] = -(oil + res);
    give(purses[t.to]!, { oil, res }, `trade from ${t.giver}`);
    fired('7.5', s.scenario);
  }
}

/**
 * 7.6 step 5: a trade's Oil and Resources count only if its recipient can trace a supply line to them,
 * in the country they come from (1.7: a line to Oil and Resources may cross neutral land). Where none of
 * that country is in play there is nothing to trace to, and the trade counts.
 */
function tradeReaches(p: PackIndex, s: BlitzState, to: string, from: string): boolean {
  if (!usesSupply(p, s)) return true;
  const lands = (p.countryLands.get(from) ?? []).filter((l) => l in s.control);
  if (!lands.length) return true;
  const reach = suppliedAreas(p, s, to, anyHome(p, s, to), 'income');
  return lands.some((l) => reach.has(l));
}

/** 7.6 step 2: each Partisan costs the holder of its area one Oil or Resource; then it is gone (7.1). */
/**
 * A loss tied to a land area (7.6 steps 2 and 6): from an isolated ally's own income if the area's
 * Oil and Resources are its (never below 0), else from the power's (Resources first).
 */
function loseAt(x: Purse, land: string, n: number, line: string): void {
  const ally = x.isolated?.[land];
  if (ally === undefined) {
    take(x, n, line);
    return;
  }
  const lost = Math.min(n, x.earmark[ally] ?? 0);
  if (!lost) return;
  x.earmark[ally] = x.earmark[ally]! - lost;
  x.lines[`${line} (${ally})`] = (x.lines[`${line} (${ally})`] ?? 0) - lost;
}

function partisanLosses(s: BlitzState, purses: Record<string, Purse>): void {
  for (const land of s.partisans ?? []) {
    const owner = s.control[land];
    if (owner && purses[owner]) loseAt(purses[owner]!, land, 1, 'partisans');
  }
  if (s.partisans) delete s.partisans;
  // 9.6 result 4: a Partisan placed by sabotage last turn blocks one more, besides this turn's roll.
  for (const land of s.sabotagePartisans ?? []) {
    const owner = s.control[land];
    if (owner && purses[owner]) loseAt(purses[owner]!, land, 1, 'sabotage partisans');
  }
  if (s.sabotagePartisans) delete s.sabotagePartisans;
}

function noteDelivery(p: PackIndex, s: BlitzState, what: string): void {
  if (scenarioDef(p, s.scenario).victory?.objectives.some((o) => o.kind === 'lend-lease')) (s.llThisTurn ??= []).push(what);
}

/**
 * 7.4/E.4: a Lend Lease counter for a minor ally's units (the Bay of Bengal LL to China) turns up to
 * `llMax` of its power's Resources into income only that country's units may use, if the LL unit has
 * supply to its sea and a friendly landing on it, and the country has an area its side holds in reach.
 */
function homeLendLease(p: PackIndex, s: BlitzState, id: string, purses: Record<string, Purse>, ev: Events): void {
  const u = s.units[id]!;
  const d = unitDef(p, u.def);
  const purse = purses[u.power];
  if (!purse || !suppliedSeas(p, s, u.power, d.home, 'power').has(d.llSea!)) return;
  const side = sideOf(p, s, u.power);
  const reach = suppliedAreas(p, s, u.power, d.home, 'income');
  const landing = [...(p.coastOf.get(d.llSea!) ?? [])].filter((l) => l in s.control && friendlyLand(p, s, l, side) && reach.has(l)).sort()[0];
  const target = (p.countryLands.get(d.llToHome!) ?? []).find((l) => l in s.control && friendlyLand(p, s, l, side) && reach.has(l));
  if (!landing || !target) return;
  const n = Math.min(u.size, d.llMax ?? u.size, purse.res);
  if (n <= 0) return;
  purse.res -= n;
  purse.lines[`lend lease to ${d.llToHome}`] = (purse.lines[`lend lease to ${d.llToHome}`] ?? 0) - n;
  purse.earmark[d.llToHome!] = (purse.earmark[d.llToHome!] ?? 0) + n;
  fired('7.4', s.scenario);
  noteDelivery(p, s, `${u.power}>${d.nation}`);
  emit(ev, 'lend-lease', `${unitName(p, id)} delivers ${n} Resource${n > 1 ? 's' : ''} for ${d.llToHome} units through ${landName(p, landing)}`, u.power, { unit: id, to: d.llToHome!, resources: n, oil: 0, via: landing });
}

/**
 * 7.4: Lend Lease deliveries, giver to recipient. Each delivers its Size, or what its giver has left;
 * `oilOf(unit, lo, hi)` says how much of it is Oil, between the least the giver's Resources allow and
 * the most its Oil allows (7.4: the giver decides whether it sends Oil, Resources or both).
 */
function lendLease(p: PackIndex, s: BlitzState, purses: Record<string, Purse>, ev: Events, oilOf: (unit: string, lo: number, hi: number) => number): void {
  const sc = scenarioDef(p, s.scenario);
  for (const [id, u] of onMap(s)) {
    if (typeOf(p, u) !== 'LL') continue;
    const d = unitDef(p, u.def);
    if (d.llSea && d.llToHome && u.at === `sea:${d.llSea}`) {
      homeLendLease(p, s, id, purses, ev);
      continue;
    }
    if (!d.llSea || !d.llTo || u.at !== `sea:${d.llSea}`) continue;
    const to = sc.powers.find((x) => x.nations.includes(d.llTo!))?.id;
    if (!to || to === u.power || !purses[to] || !purses[u.power]) continue;
    if (!suppliedSeas(p, s, u.power, d.home, 'power').has(d.llSea)) continue;
    const side = sideOf(p, s, u.power);
    const reach = suppliedAreas(p, s, to, anyHome(p, s, to), 'income');
    const landing = [...(p.coastOf.get(d.llSea) ?? [])].filter((l) => l in s.control && friendlyLand(p, s, l, side) && reach.has(l)).sort()[0];
    if (!landing) continue;
    const giver = purses[u.power]!;
    const n = Math.min(u.size, giver.oil + giver.res);
    if (n === 0) continue;
    const oil = oilOf(id, Math.max(0, n - giver.res), Math.min(n, giver.oil));
    const got = { oil, res: n - oil };
    giver.oil -= got.oil;
    giver.res -= got.res;
    giver.lines[`lend lease to ${to}`] = (giver.lines[`lend lease to ${to}`] ?? 0) - n;
    give(purses[to]!, got, `lend lease from ${u.power}`);
    noteDelivery(p, s, `${u.power}>${d.llTo}`);
    fired('7.4', s.scenario);
    emit(ev, 'lend-lease', `${unitName(p, id)} delivers ${got.res ? `${got.res} Resources` : ''}${got.res && got.oil ? ' and ' : ''}${got.oil ? `${got.oil} Oil` : ''} to ${to} through ${landName(p, landing)}`, u.power, { unit: id, to, resources: got.res, oil: got.oil, via: landing });
  }
}

/**
 * 7.4, 1.9: the next Lend Lease choice of the turn end: the first delivery with a choice not yet made,
 * asked of its giver (`lend UNIT oil K`, K from the least to the most Oil it may send); null
 * when every choice is made. The choices stay secret (`observe`) until the deliveries are made.
 */
export function askLendLease(p: PackIndex, s: BlitzState): Ask | null {
  const o = lendLeaseOffers(p, s).find((x) => s.llOil?.[x.unit] === undefined);
  if (!o) return null;
  const options = Array.from({ length: o.hi - o.lo + 1 }, (_, i) => `lend ${o.unit} oil ${o.lo + i}`);
  return { kind: 'decision', power: o.power, prompt: 'lend-lease', options };
}

export function applyLendLease(s: BlitzState, choice: string): void {
  const [, unit, , k] = choice.split(' ') as [string, string, string, string];
  (s.llOil ??= {})[unit] = Number(k);
  fired('7.4', s.scenario);
}
