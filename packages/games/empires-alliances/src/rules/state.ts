/**
 * The game state: plain JSON, units as parallel number arrays indexed by unit number (PLAN.md). The
 * unit's counter, nation and side live in the board (board.ts), fixed for the game.
 */
import type { SideNo } from './board.ts';

/** Unit flags (`flg`). */
export const FLAG = { MOVED: 1, ATTACKED: 2, DEFENDED: 4, AIR_USED: 8, RETREATED: 16, SORTIE: 32, AV: 64 } as const;
/** Special values of `hex`. */
export const HEX = { POOL: -1, NOT_ARRIVED: -2, REMOVED: -3, SETUP: -4 } as const;

/** What happens next: a decision (by kind), a die roll, or the end. */
export type Ask =
  | { k: 'die'; what: 'weather' | 'combat' | 'morale' | 'desert' }
  | { k: 'move' }
  | { k: 'deploy'; u: number; opts: number[] }
  | { k: 'buy'; opts: number[] }
  | { k: 'place'; u: number; opts: number[] }
  | { k: 'to'; u: number; opts: number[]; rail?: true; via?: number[][] }
  | { k: 'fly'; u: number; over: number[]; base: number[] }
  | { k: 'land'; u: number; opts: number[] }
  | { k: 'attack' }
  | { k: 'with' }
  | { k: 'pair'; side: SideNo }
  | { k: 'split' }
  | { k: 'lose'; side: SideNo; sets: number[][] }
  | { k: 'retreat'; u: number; opts: number[] }
  | { k: 'advance'; opts: number[]; av?: { hex: number; used: number[] } }
  | { k: 'av'; hex: number; att: number[] }
  | { k: 'over' };

/** A step still to do after a combat result (13.7-13.9). */
export type Todo =
  | { t: 'lose'; side: SideNo; factors: number; largest: boolean; stoss: boolean; tank: boolean; thenDefLoses?: boolean; nd?: boolean }
  /** `again`: 13.84's second retreat hex, from the hex the unit first retreated from (not offered again). */
  | { t: 'retreat'; units: number[]; again?: number }
  | { t: 'advance' };

/** The combat being resolved. */
export interface Combat {
  hex: number;
  att: number[];
  def: number[];
  /** Odds column, net DRM, and what the attacker's DRM counted (for the loss duties of 16.1 and 16.3). */
  col: number;
  drm: number;
  stoss: boolean;
  tank: boolean;
  air: number[];
  todo: Todo[];
  /** Attack factors the attacker lost so far (ND: the defender loses as many defense factors). */
  attLost: number;
  /** 13.62: the defender's pairs, flat: support unit, Inf/Cav, ... */
  pairs: number[];
  /** 13.3, 13.63: designated attacks still to resolve, in order. */
  queue: { att: number[]; def: number[] }[];
  /** 13.3 while the split is designated: attackers and defenders not yet assigned, and the attack being built. */
  pool: number[];
  left: number[];
  sa: number[];
  sd: number[];
}

export interface EaState {
  /** Board key: pack hash and scenario. */
  key: string;
  rulings: Record<string, string>;
  /** Turn index from 0 (March 1918 in S3). */
  turn: number;
  /** Phasing side: 0 Central Powers, 1 Allies. */
  seg: SideNo;
  phase: 'setup' | 'weather' | 'reinforce' | 'move' | 'combat' | 'morale' | 'over';
  /** Weather of the West zone this turn. */
  wx: 'clear' | 'mud' | 'snow';
  hex: number[];
  /** Unsupplied level 0-3 (14.1). */
  sup: number[];
  /** 0 fine, 1 Demoralized, 2 Demoralized This Segment (13.85). */
  mor: number[];
  /** Entrenchment level 0-2 (15.2). */
  ent: number[];
  flg: number[];
  /** Hexes whose control differs from the start (4.2), ascending. */
  flip: number[];
  /** Rail hexes whose gauge (the side whose rail it is) differs from the start, flat: hex, side, ... ascending (10.2-10.3, railheads.ts). */
  rails: number[];
  /** Live forts, flat: hex, side, level, ... (15.1). */
  forts: number[];
  /** Stored RPs per RP pool (nation): [inf, art, tank] (17.2). */
  rp: Record<string, number[]>;
  /** War weariness per nation: [accumulated DRM, R percent in force, last turn it is in force] (21). */
  ww: Record<string, number[]>;
  cb: Combat | null;
  /** Rail capacity used this segment, in half-corps, by rail net (9.5). */
  rail: Record<string, number>;
  /** Hexes attacked (or passed over) in this Combat Phase (13.5). */
  hit: number[];
  /** Nations still to roll for morale, units still to roll for desertion (21.34). */
  mq: string[];
  dq: number[];
  /** This Reinforcement Phase: cities that took a replacement (17.25), units replaced (17.34). Empty outside it. */
  used: number[];
  rq: number[];
  ask: Ask;
  seq: number;
  /** Final CP victory points and the reason the game ended. */
  vp?: number;
  end?: string;
}
