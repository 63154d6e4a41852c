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
  core('4.1', 'Initial control; 4.11 the 1918 start line', 'implemented', 'Germany and Luxembourg to the Central Powers; each French and Belgian hex to the side of the nearest sector hex (the sectors line both sides of the front); neutrals nobody\'s'),
  core('4.2', 'Control changes when an enemy ground unit enters', 'implemented', 'on moves (every hex of the path), retreats and advances'),
  core('5', 'Zones of control', 'implemented', 'Inf, Cav and FA project ZOC unless demoralized or at effective L2; not across sea or lake nor into neutrals'),
  core('6.1', 'Ground stacking limits', 'implemented', 'met at the end of every move, retreat, advance and placement (so 6.2\'s eliminations never arise)'),
  core('6.2', 'When stacking is checked', 'implemented', 'by refusing illegal stacks as they form'),
  core('6.3', 'Air basing in cities', 'implemented', 'two air units in a major city, one in a minor (transfers, landings); air in a city the enemy takes flies to the nearest friendly city within 8 with room, or is eliminated (made at once, not asked)'),
  core('7', 'Sequence of play', 'implemented', 'weather, the CP then Allied segments (reinforcement, supply, movement, combat, administration), national morale, end of turn'),
  core('8', 'Ground movement', 'implemented', 'MF after weather, supply and morale (8.2), TEC costs, EZOC to EZOC +1 MP (8.3), one hex always (8.4), but a unit with an unsupplied marker not farther from its side\'s nearest source (8.4 exception), no entry to enemy units, neutrals or a lone enemy fort'),
  core('9', 'Rail movement', 'implemented', 'entrain/detrain, 30 hexes (24 in Snow), on rail of the side\'s gauge up to its railheads (10) that it controls, free of enemy units and ZOC, capacity per net (US on the French, Commonwealth on the British, Luxembourg on the German); ground movement before or after a rail move; a move into another country counts against that country\'s capacity too (9.51: shared with its own units for a country of the side, counted per side on an enemy country\'s railroads); a major power may rail 6 corps on a minor\'s railroads while they lead to one of its supply sources (9.52). A move counts against the country it ends in, not the ones it passes through.'),
  core('10', 'Railheads', 'implemented', 'railheads.ts: each rail hex has a gauge: the CP\'s from Germany to the scenario\'s railheads (10.1, S3 3.46), the Allies\' beyond (10.3); in each Administrative Phase a side converts up to 3/2/1 hexes (Clear/Mud/Snow, 10.4) of rail it holds, free of enemy units and ZOC, joined to its home rail (10.2), the Allies pushing the CP\'s back (10.3); 10.2\'s unit in the hex is read as the side\'s control of it (4.2: only an entering unit changes control); rail movement and rail supply use the side\'s own gauge under its control'),
  core('12', 'Automatic Victory', 'implemented', 'in the Movement Phase: 8-1, 10-1 (forest, swamp, major city, entrenchment, fort, or Mud/Snow), 12-1 with both, from any eligible units next to the hex (12.1, 13.652); the defenders to the pool, the units used neither move on nor attack this segment and may advance into the hex; others move through it (12.2-12.3)'),
  core('13.6', 'Combat resolution: odds, DRMs, the CRT', 'implemented', '13.62 pairing by the defender and 13.3 split attacks by the attacker, resolved in the order built (13.63); odds in exact eighths; DRM caps; net roll clamp; 13.651 lone fort'),
  core('13.7', 'Combat results and losses', 'implemented', 'all eight results; losses chosen among the minimal legal sets (13.71-13.72, 16.1, 16.3), the six cheapest offered; 13.73 a pair\'s survivors retreat demoralized on an ND'),
  core('13.8', 'Retreats and demoralization', 'implemented', 'one hex, owner\'s choice, no longer supply line where possible, eliminated into enemy ZOC or with no hex; into a hex it over-stacks only when none fits, the excess unit then retreating a second hex (not back) where it must fit or is eliminated (13.84; never onto the other nationality, 18.41); DTS/Demoralized and their removal (13.86)'),
  core('13.9', 'Advance after combat', 'implemented', 'Inf/Cav of the attack, within stacking; the defender\'s fort destroyed'),
  core('14', 'Supply', 'partial', 'supply-sources.ts: full sources are rail-linked networks of three or more controlled home major cities free of enemy units and ZOC, the linking rail too (14.3; London, 14.31, with the sea rules); every other controlled home city is a limited source while an adjacent non-neutral land hex is free of enemy units and ZOC, 6 corps a major city, 3 a minor, 6 a box, divisions and 1-factor artillery half (14.4); a path leads to any source (14.2: rail then overland 5/4/3), capacity decides which units the Supply and Administrative Phases feed; escalation L1-L2-eliminated with the city/fort delay (14.1, 14.63), unsupplied effects on MF, ZOC, factors and special DRMs (14.6). Left: 14.31 London and 14.5 sea supply, which come with the sea rules (hooks in supply-sources.ts).'),
  core('15.1', 'Forts', 'implemented', 'the holder\'s DRM, DD/AD without retreat, delayed supply effects, destroyed by an advance'),
  core('15.2', 'Entrenchments', 'implemented', 'the 50% DRM rule (15.24); building and upgrading by supplied infantry that does not move; lost when the unit moves (ruling entrench-owner)'),
  core('16.1', 'Stosstruppen', 'implemented', 'DRM and cap; the loss duty in the loss sets'),
  core('16.2', 'Siege Artillery', 'implemented'),
  core('16.3', 'Tanks', 'implemented', 'DRM, cap, terrain and river; one infantry corps of its nation per tank'),
  core('16.4', 'Air units', 'implemented', 'the owner flies each air unit in the Movement Phase over an enemy hex within 4 (three at most per hex) or transfers it up to 10; +1 per air unit over the hex, at most 2 an attack, an infantry corps of its nation each (16.42); landing within 4 after the Combat Phase'),
  core('17.1', 'Reinforcements', 'implemented', 'placed at the named city, a port (US, 17.31), or by 17.12-17.13\'s order; delayed when no city can take them'),
  core('17.2', 'Replacements and RPs', 'implemented', 'RPs with blockade, submarines and R#, caps; the owner buys from the pool (17.24, 17.32) and places at the first 17.26 class of supplied home cities with room, one per city (major cities stand for the Artillery RP cities, 17.33), US at ports (17.31), one Stosstruppen and one Tank per nation a turn (17.34)'),
  core('18.3', 'Garrisons', 'implemented', 'garrisons.ts: one Inf/Cav corps (or two divisions) in each major city a side holds in an enemy country and in Brussels (18.31); 1 Infantry RP off the next turn\'s for each one short at the end of the segment (18.32), Germany\'s for the CP, Britain\'s (rows 24 and north) or France\'s for the Allies'),
  core('18.4', 'British sector: no stacking with the French, -1 DRM together', 'implemented', '18.41 stacking, 18.42 DRM (3.62 takes the place of 18.43 in S3)'),
  core('19.1', 'Blockade', 'implemented'),
  core('19.2', 'Submarine warfare', 'implemented'),
  core('20', 'Weather', 'implemented', 'the table and every effect on MF, rail, supply, railheads; S3 plays the West zone'),
  core('21', 'National morale (War Weariness)', 'implemented', 'checks at the end of March, June and September 1918; DRMs; NE, R#, D (desertion rolls), S (the nation leaves the game); M as R30 in S3'),
  opt('22.9', 'Retreat into an EZOC with an RP refund', 'partial', 'the refund arithmetic only'),
  scen('S3 3.3', 'S3 initial forces', 'implemented', [], 'from the consistent sector tables, not the garbled 3.31 list (digest §7.3-16)'),
  scen('S3 3.4', 'S3 initial deployment by sector', 'implemented', [], 'the players place each sector unit in its sector (the Allies first; only hexes that keep the rest placeable under 6.1 are offered), or the pack\'s deal with deploy=deal; garrisons and placements fixed; the start-line L2 entrenchments'),
  scen('S3 3.5', 'S3 reinforcements and replacements', 'implemented', ['17.1', '17.2'], 'stated 3.511 units plus an estimated Campaign OB'),
  scen('S3 3.6', 'S3 special rules: the area used (3.61), sectors, Mud and no rail in March 1918, war weariness', 'implemented', ['20', '21', '9']),
  scen('S3 3.7', 'S3 victory points and levels', 'implemented'),
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
