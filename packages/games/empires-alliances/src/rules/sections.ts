/**
 * Every section of the Empires & Alliances rulebook that Scenario 3 uses, with how far this code
 * implements it. Titles are our own short descriptions. `salient rules coverage` reads this list, the
 * tests that cite each section (test/rules/<section>-<name>.test.ts) and how often each fired.
 * Rulings (rulings.ts) are named in the notes of the sections they read.
 */
import type { RuleSection } from '@salient/engine';
import { RULINGS } from './rulings.ts';

type Status = RuleSection['status'];

const rulingNote = (id: string): string => {
  const rs = RULINGS.filter((r) => r.sections.some((s) => s === id || s.startsWith(`${id}.`) || id.startsWith(`${s}.`)));
  return rs.length ? ` Rulings: ${rs.map((r) => `${r.id} (default ${r.defaultReading})`).join('; ')}.` : '';
};
const core = (id: string, title: string, status: Status, note = ''): RuleSection => {
  const n = `${note}${rulingNote(id)}`.trim();
  return { id, title, part: 'core', status, ...(n ? { note: n } : {}) };
};
const opt = (id: string, title: string, status: Status = 'not-implemented', note = ''): RuleSection => ({ id, title, part: 'optional', status, ...(note ? { note } : {}) });
const scen = (id: string, title: string, status: Status, restates: readonly string[] = [], note = ''): RuleSection => {
  const n = `${note}${rulingNote(id)}`.trim();
  return { id, title, part: 'scenario', status, ...(restates.length ? { restates } : {}), ...(n ? { note: n } : {}) };
};

export const EA_SECTIONS: readonly RuleSection[] = [
  core('3.1', 'Unit counters: size, type, attack-defense-movement', 'implemented', 'the S3 profiles in counters.json'),
  core('4.1', 'Initial control; 4.11 the 1918 start line', 'not-implemented', 'needs the map (start line from map.json lines)'),
  core('4.2', 'Control changes when an enemy ground unit enters', 'not-implemented'),
  core('5', 'Zones of control', 'partial', 'who projects one (5.1, 5.2); the per-side ZOC masks come with @salient/hexmap'),
  core('6.1', 'Ground stacking limits', 'implemented'),
  core('6.2', 'When stacking is checked', 'not-implemented'),
  core('6.3', 'Air basing in cities', 'partial', 'capacities; rebasing not yet'),
  core('7', 'Sequence of play', 'not-implemented', 'the phase machine comes with the Game (PLAN.md)'),
  core('8', 'Ground movement', 'partial', 'the MF after weather, supply and morale (8.2); reaches come with @salient/hexmap'),
  core('9', 'Rail movement', 'partial', 'capacities (pack) and rail hexes by weather; moves need the rail graph'),
  core('10', 'Railheads', 'partial', 'advance rates by weather (10.4)'),
  core('12', 'Automatic Victory', 'partial', 'the odds needed (12.1)'),
  core('13.6', 'Combat resolution: odds, DRMs, the CRT', 'implemented', 'odds in exact eighths; DRM caps; net roll clamp'),
  core('13.7', 'Combat results and losses', 'partial', 'legal and minimal loss sets (13.71-13.73, 16.1, 16.3), AD counts; applying them comes with the Game'),
  core('13.8', 'Retreats and demoralization', 'partial', 'demoralized factors (13.85); retreat paths need the map'),
  core('13.9', 'Advance after combat', 'not-implemented'),
  core('14', 'Supply', 'partial', 'unsupplied effects on factors (14.6, 14.61) and their delay (14.63), path length by weather; paths need @salient/hexmap'),
  core('15.1', 'Forts', 'partial', 'the fort DRM (15.12)'),
  core('15.2', 'Entrenchments', 'partial', 'the 50% DRM rule (15.24)'),
  core('16.1', 'Stosstruppen', 'implemented', 'DRM and cap; the loss duty in the loss sets'),
  core('16.2', 'Siege Artillery', 'implemented'),
  core('16.3', 'Tanks', 'partial', 'DRM, cap, terrain and river; pairing each tank with an infantry corps of its nation is the caller\'s'),
  core('16.4', 'Air units', 'partial', 'DRM and cap (16.42); flights need the map'),
  core('17.1', 'Reinforcements', 'partial', 'the S3 schedule in the pack'),
  core('17.2', 'Replacements and RPs', 'implemented', 'the turn\'s RPs with blockade, submarines and R#; caps; costs'),
  core('18.4', 'British sector: no stacking with the French, -1 DRM together', 'partial', '18.41 stacking, 18.42 DRM'),
  core('19.1', 'Blockade', 'implemented'),
  core('19.2', 'Submarine warfare', 'implemented'),
  core('20', 'Weather', 'implemented', 'the table and every effect on MF, rail, supply, railheads'),
  core('21', 'National morale (War Weariness)', 'partial', 'checks, DRMs, the table, R#, M, D, S as values; applying them comes with the Game'),
  opt('22.9', 'Retreat into an EZOC with an RP refund', 'partial', 'the refund arithmetic only'),
  scen('S3 3.3', 'S3 initial forces', 'implemented', [], 'from the consistent sector tables, not the garbled 3.31 list (digest §7.3-16)'),
  scen('S3 3.4', 'S3 initial deployment by sector', 'partial', [], 'sectors, a default deal within 6.1, placements; the start-line entrenchments need the map'),
  scen('S3 3.5', 'S3 reinforcements and replacements', 'partial', ['17.1', '17.2'], 'stated 3.511 units plus an estimated Campaign OB'),
  scen('S3 3.6', 'S3 special rules: sectors, Mud and no rail in March 1918, war weariness', 'partial', ['20', '21']),
  scen('S3 3.7', 'S3 victory points and levels', 'implemented', [], 'scoring and bands; the supply path for the half point needs the map'),
];

let tracer: ((section: string) => void) | undefined;

/** `RulesInfo.trace`: report each section as it fires (or stop). */
export function traceRules(onFire: ((section: string) => void) | undefined): void {
  tracer = onFire;
}

/** A rule section has just been applied. */
export function fired(section: string): void {
  tracer?.(section);
}
