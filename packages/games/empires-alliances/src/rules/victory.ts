/**
 * S3 3.71/3.72 Victory: at the end of November 1918 the Central Powers score 1 for each of ten Allied
 * places occupied by German infantry and 1 for each of five German cities not occupied by Allied
 * infantry; a place that cannot trace a 14.2 supply path counts ½ (ruling `vp-supply` says whose).
 */
import { reading, type RulingChoice } from './rulings.ts';

/** One of the 15 places at the count. */
export interface VpPlace {
  kind: 'take' | 'hold';
  /** German infantry (Stosstruppen included) stands there. */
  germanInfantry: boolean;
  /** Allied infantry stands there. */
  alliedInfantry: boolean;
  /** The path the `vp-supply` ruling asks for can be traced from it (14.2). */
  supplied: boolean;
}

/** The VP one place gives (0, ½ or 1). */
export function placeVp(p: VpPlace): number {
  const scores = p.kind === 'take' ? p.germanInfantry : !p.alliedInfantry;
  return scores ? (p.supplied ? 1 : 0.5) : 0;
}

/** 3.71: the Central Powers' total. */
export const centralVp = (places: readonly VpPlace[]): number => places.reduce((s, p) => s + placeVp(p), 0);

export type VictoryLevel = 'allied-major' | 'allied-minor' | 'draw' | 'cp-minor' | 'cp-major';
export const LEVEL_NAMES: Readonly<Record<VictoryLevel, string>> = {
  'allied-major': 'Allied Major Victory',
  'allied-minor': 'Allied Minor Victory',
  draw: 'Draw',
  'cp-minor': 'Central Powers Minor Victory',
  'cp-major': 'Central Powers Major Victory',
};

/**
 * 3.72: the level of victory for a CP total. `bands` are the lower bounds of Allied Minor, Draw, CP
 * Minor and CP Major (the pack's [7, 9, 11, 12.5]: under 7, 7-8, 9-10, 11-12, more than 12).
 */
export function victoryLevel(vp: number, bands: readonly [number, number, number, number], rulings: RulingChoice): VictoryLevel {
  const v = reading(rulings, 'vp-bands') === 'round-down' ? Math.floor(vp) : vp;
  if (v >= bands[3]) return 'cp-major';
  if (v >= bands[2]) return 'cp-minor';
  if (v >= bands[1]) return 'draw';
  if (v >= bands[0]) return 'allied-minor';
  return 'allied-major';
}

/**
 * The result sentence for a level: the level and the span of totals that gives it (3.72, read by the
 * `vp-bands` ruling; totals move in halves, 3.71), not the exact total (that is the score), so every
 * game decided the same way reads the same and reports can group them.
 */
export function levelReason(level: VictoryLevel, bands: readonly [number, number, number, number], rulings: RulingChoice, when: string): string {
  // The lowest total (in halves) that reaches each band under the ruling.
  const floor = reading(rulings, 'vp-bands') === 'round-down';
  const low = bands.map((b) => (floor ? Math.ceil(b) : Math.ceil(b * 2) / 2));
  const f = (x: number) => (Number.isInteger(x) ? String(x) : `${Math.floor(x)}½`);
  const span = (a: number, b: number) => `${f(a)} to ${f(b - 0.5)} VP`;
  const band: Record<VictoryLevel, string> = {
    'allied-major': `less than ${f(low[0]!)} VP`,
    'allied-minor': span(low[0]!, low[1]!),
    draw: span(low[1]!, low[2]!),
    'cp-minor': span(low[2]!, low[3]!),
    'cp-major': `${f(low[3]!)} VP or more`,
  };
  return `${LEVEL_NAMES[level]}: the Central Powers hold ${band[level]} ${when} (3.71, 3.72)`;
}
