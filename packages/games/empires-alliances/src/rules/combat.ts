/**
 * 13 Combat: odds with exact fractions (13.641, 14.61), DRMs and their caps (13.642, 15.12, 15.24,
 * 16.1-16.42, 18.42, 21.33), the CRT (13.643), automatic victory odds (12.1) and which losses satisfy
 * a result (13.7-13.73, 16.1, 16.3). Pure functions over small inputs: the game layer gathers the
 * units and the map facts, these say what the rules make of them.
 *
 * Factors are kept in eighths so that every reduction the rules name stays exact: unsupplied ×¾ and ×½
 * (14.6, "retain fractions", 14.61) and ×½ across a river (TEC, 16.3) combine to 3/8 at worst.
 */
import { CRT_COLUMNS, CRT_MAX_ROLL, CRT_MIN_ROLL, type Charts, type CrtResult, type Profile } from '../pack/schema.ts';
import { isArtillery, isInfCav } from './units.ts';

/** Eighths of a factor: the unit in which combat strength is summed. */
export const EIGHTHS = 8;

/** 14.6/14.63: the unsupplied level whose effects apply, one level lighter in a major city or fort. */
export function effectiveSupplyLevel(level: number, inMajorCityOrFort: boolean): number {
  return inMajorCityOrFort ? Math.max(0, level - 1) : level;
}

/** 14.6: the combat multiplier of an effective unsupplied level, in eighths (L0 8/8, L1 6/8, L2+ 4/8). */
export const supplyEighths = (effectiveLevel: number): number => (effectiveLevel <= 0 ? 8 : effectiveLevel === 1 ? 6 : 4);

/**
 * One attacking unit's strength in eighths: printed attack × supply effect × the hexside it attacks
 * across (`across` as a fraction, e.g. a river's ½; 16.3 halves a Tank across a river in any case).
 */
export function attackEighths(attack: number, effectiveLevel: number, across: { num: number; den: number } = { num: 1, den: 1 }): number {
  // Keep exact: attack × (supply/8) × (num/den), expressed in eighths, may be fractional only when den > 2.
  return (attack * supplyEighths(effectiveLevel) * across.num) / across.den;
}

/** One defending unit's strength in eighths: printed defense, halved (rounded down) if demoralized (13.85), × supply effect. */
export function defenseEighths(defense: number, effectiveLevel: number, demoralized: boolean): number {
  const d = demoralized ? Math.floor(defense / 2) : defense;
  return d * supplyEighths(effectiveLevel);
}

/**
 * 13.641: the odds column for `att` against `def` (any common unit), as an index into the CRT's
 * columns (0 = 1-5 .. 10 = 7-1), or -1 when the attack is below 1-5 and not allowed. Fractions are
 * dropped: 23 to 10 is 2-1, 7 to 10 is 1-2; above 7-1 counts as 7-1.
 */
export function oddsColumn(att: number, def: number): number {
  if (def <= 0) return CRT_COLUMNS.length - 1;
  for (let n = 7; n >= 1; n--) if (att >= n * def) return 3 + n; // n-1: 1-1 is column 4, 7-1 column 10
  for (let n = 2; n <= 5; n++) if (n * att >= def) return 5 - n; // 1-n: 1-2 is column 3, 1-5 column 0
  return -1;
}

/** The column's printed name (`2-1`). */
export const columnName = (col: number): string => CRT_COLUMNS[col] ?? 'illegal';

/** 13.642: attacker's DRMs less the defender's, at most ±3. */
export const netDrm = (attackerDrm: number, defenderDrm: number): number => Math.max(-3, Math.min(3, attackerDrm - defenderDrm));

/** 13.643 note: the die plus the net DRM, read as -1 below -1 and 12 above 12. */
export const netRoll = (die: number, drm: number): number => Math.max(CRT_MIN_ROLL, Math.min(CRT_MAX_ROLL, die + drm));

/** 13.643: the CRT's result for an odds column and a net roll. */
export function crtResult(crt: Charts['crt'], column: number, roll: number): CrtResult {
  const r = crt.results[column]?.[netRoll(roll, 0) - CRT_MIN_ROLL];
  if (!r) throw new Error(`CRT has no cell for column ${column}, roll ${roll}`);
  return r;
}

/** What the attacker brings, for its DRMs (16.1-16.42, 18.42, 21.33). Counts are of units whose DRM is live (14.62). */
export interface AttackDrmInput {
  /** Stosstruppen in the attack with their DRM (16.1; lost at effective unsupplied L2, 14.62). */
  stoss: number;
  /** Tanks whose DRM counts: the caller has matched each to an infantry corps of its nationality (16.3). */
  tanks: number;
  /** Air units supporting, each matched to an infantry corps of its nationality (16.42). */
  air: number;
  /** Siege artillery in the attack (16.2). */
  siege: number;
  /** Fort level in the defending hex, 0 if none (15.12, 16.2). */
  fortLevel: number;
  /** The defender's terrain forbids a Tank DRM (16.3: forest, swamp, mountain). */
  noTankTerrain: boolean;
  /** 21.33: the defenders are of a country under Low Morale. */
  defenderLowMorale: boolean;
  /** 18.42: British and French (US counting French) units attack together in the sector area. */
  britishAndFrench: boolean;
}

/** The attacker's total DRM, each source capped as its rule says. */
export function attackerDrm(a: AttackDrmInput): number {
  const stoss = Math.min(3, a.stoss); // 16.1
  const tank = a.noTankTerrain ? 0 : Math.min(3, a.tanks); // 16.3
  const air = Math.min(2, a.air); // 16.42
  const siege = Math.min(a.fortLevel, a.siege); // 16.2
  return stoss + tank + air + siege + (a.defenderLowMorale ? 1 : 0) - (a.britishAndFrench ? 1 : 0);
}

/** A defending unit as the entrenchment test sees it (15.24). */
export interface EntrenchedDefender {
  /** Counting weight in half-corps (units.ts `entrenchHalves`: 2 corps, 1 non-US division, 0 art/tank). */
  halves: number;
  /** Its entrenchment level, 0 if none. An art/tank paired with an entrenched infantry unit shares it but is not counted. */
  level: number;
}

/**
 * 15.24: the entrenchment DRM of one attack: the highest level L such that the corps entrenched at L or
 * better make up at least half of the defending corps (art and tanks not counted, divisions ½).
 */
export function entrenchmentDrm(defenders: readonly EntrenchedDefender[]): number {
  const total = defenders.reduce((s, d) => s + d.halves, 0);
  if (total === 0) return 0;
  for (let level = 2; level >= 1; level--) {
    const at = defenders.reduce((s, d) => s + (d.level >= level ? d.halves : 0), 0);
    if (at > 0 && 2 * at >= total) return level;
  }
  return 0;
}

/**
 * The defender's total DRM: fort level (15.12), entrenchment (15.24) and terrain (the TEC; a major
 * city's own line where it is better than the hex's terrain). Returned as a positive number to subtract.
 */
export function defenderDrm(fortLevel: number, entrenchment: number, terrainDrm: number): number {
  return fortLevel + entrenchment - terrainDrm;
}

/**
 * 12.1: the odds an automatic victory needs: 8-1, 10-1 if the defender is in forest, swamp, a major
 * city, an entrenchment or a fort or if the hex has Mud or Snow, 12-1 if both.
 */
export function avOddsNeeded(defensiveHex: boolean, badWeather: boolean): number {
  return 8 + (defensiveHex ? 2 : 0) + (badWeather ? 2 : 0);
}

/** 12.1: whether `att` against `def` reaches `needed`-to-1. */
export const avReached = (att: number, def: number, needed: number): boolean => def <= 0 || att >= needed * def;

/** A unit taking part in a combat, for loss rules (13.7-13.73). Factors are printed ones (13.71). */
export interface LossUnit {
  profile: Profile;
}

/** What a side must lose on a result (13.7), as the loss chooser needs it. */
export interface LossNeed {
  /** Factors (attack for the attacker, defense for the defender) to remove at least. */
  factors: number;
  /** Which factor counts: the attacker loses attack factors, the defender defense factors (13.7). */
  factor: 'attack' | 'defense';
  /** 16.1: a Stosstruppen must be among the losses. */
  mustLoseStoss: boolean;
  /** 16.3: a Tank must be among the losses. */
  mustLoseTank: boolean;
  /** ND (13.7): the unit with the largest attack factor must be lost (16.1 overrides it for Stosstruppen). */
  mustLoseLargest: boolean;
}

/** Whether a chosen set of losses meets `need` and the mix rules of 13.72 (where they can be met at all). */
export function lossSetLegal(all: readonly LossUnit[], lost: readonly number[], need: LossNeed): boolean {
  const set = new Set(lost);
  const units = lost.map((i) => all[i]!.profile);
  const sum = units.reduce((s, p) => s + (need.factor === 'attack' ? p.attack : p.defense), 0);
  if (sum < need.factors && set.size < all.length) return false; // all gone meets any need
  if (need.mustLoseStoss && all.some((u) => u.profile.type === 'stoss') && !units.some((p) => p.type === 'stoss')) return false;
  if (need.mustLoseTank && all.some((u) => u.profile.type === 'tank') && !units.some((p) => p.type === 'tank')) return false;
  if (need.mustLoseLargest && !need.mustLoseStoss) {
    const top = Math.max(...all.map((u) => u.profile.attack));
    if (!units.some((p) => p.attack === top)) return false;
  }
  // 13.72: at least one Inf/Cav when any is present; no more art/tank than Inf/Cav lost, where possible.
  const infCavAll = all.filter((u) => isInfCav(u.profile.type)).length;
  const infCavLost = units.filter((p) => isInfCav(p.type)).length;
  const otherLost = units.length - infCavLost;
  if (units.length > 0 && infCavAll > 0 && infCavLost === 0) return false;
  if (otherLost > infCavLost && infCavLost < infCavAll) return false;
  return true;
}

/**
 * Every minimal legal loss set (no unit of it could be spared), as sorted index lists, smallest total of
 * factors first. Examines at most `budget` candidate sets (enough for any stack the stacking rules
 * allow around a hex); the last resort of losing everything is always included.
 */
export function minimalLossSets(all: readonly LossUnit[], need: LossNeed, budget = 20000): number[][] {
  const n = all.length;
  const found: number[][] = [];
  let examined = 0;
  const pick: number[] = [];
  const isSuperset = (cand: number[]): boolean => found.some((f) => f.every((i) => cand.includes(i)));
  for (let size = 1; size <= n && examined < budget; size++) {
    const rec = (start: number): void => {
      if (examined >= budget) return;
      if (pick.length === size) {
        examined++;
        if (!isSuperset(pick) && lossSetLegal(all, pick, need)) found.push([...pick]);
        return;
      }
      for (let i = start; i <= n - (size - pick.length); i++) {
        pick.push(i);
        rec(i + 1);
        pick.pop();
      }
    };
    rec(0);
  }
  if (found.length === 0) found.push(all.map((_, i) => i));
  const cost = (s: number[]): number => s.reduce((t, i) => t + all[i]!.profile.attack + all[i]!.profile.defense, 0);
  return found.sort((a, b) => cost(a) - cost(b) || a.length - b.length || a.join(',').localeCompare(b.join(',')));
}

/** Printed factor totals (13.71). */
export const printedAttack = (units: readonly LossUnit[]): number => units.reduce((s, u) => s + u.profile.attack, 0);
export const printedDefense = (units: readonly LossUnit[]): number => units.reduce((s, u) => s + u.profile.defense, 0);

/** 13.652: an attack needs Inf/Cav, and no more art/tank than Inf/Cav (air is counted with the DRMs, not here). */
export function attackMixLegal(types: readonly Profile['type'][]): boolean {
  const infCav = types.filter(isInfCav).length;
  const support = types.filter((t) => isArtillery(t) || t === 'tank').length;
  return infCav > 0 && support <= infCav;
}

/**
 * 13.7 AD: how many attacking units are demoralized: one corps (or two divisions) per defending corps
 * (or two divisions), largest attack first; all of them if the defender had more corps. Counts in halves.
 */
export function adDemoralizedHalves(attackerHalves: number, defenderHalves: number): number {
  return defenderHalves > attackerHalves ? attackerHalves : defenderHalves;
}
