/**
 * 1.7 supply lines, on a test bed: Scenario B's map and units with supply switched on (it comes with
 * Scenario D in the rulebook). A Western Allied army in Belgium-Netherlands traces supply across the
 * North Sea to Great Britain, until a German fleet holds that sea alone.
 */
import { describe, expect, it } from 'vitest';
import { blitz } from '../../src/index.ts';
import type { PackFiles } from '../../src/pack/schema.ts';
import { packOf } from '../../src/rules/pack-index.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import { friendlySea, inSupply, landsReachedFrom, suppliedAreas } from '../../src/rules/supply.ts';
import { turnIncome } from '../../src/rules/income.ts';
import { advance } from '../../src/rules/flow.ts';
import { usaBuilds } from '../support/usa-turn-2.ts';
import { arrange, options, pack as bundled, play, prompt, skipTo, checkedPack } from '../helpers.ts';
import { seaTestFiles } from '../support/sea-test-pack.ts';

const pack = (() => {
  const files: PackFiles = seaTestFiles();
  files.pack = { ...files.pack, id: 'supply-test', description: 'Scenario B with supply lines switched on (test only).' };
  files.scenarios.scenarios.find((s) => s.id === 'B')!.supply = true;
  return checkedPack(files, 'supply test pack');
})();

/** B on Turn 9 with the Western Allies holding Belgium-Netherlands with the 2nd Army, and `extra` arranged too. */
function bridgehead(extra: Parameters<typeof arrange>[1]['units'] = {}): BlitzState {
  const s = blitz.setup('B', pack);
  return arrange(s, { control: { 'belgium-netherlands': 'WA' }, units: { '2nd-army': { at: 'belgium-netherlands' }, '15th-army': null, ...extra } });
}
/** Pass the Axis impulse; stop at the Western Allies' land moves. */
function alliedMoves(s: BlitzState): BlitzState {
  let t = s;
  for (let i = 0; i < 300 && !(blitz.position(t).impulse === 2 && prompt(t) === 'WA:move-pick'); i++) {
    const p = blitz.pending(t);
    if (p.kind !== 'decision') throw new Error(`unexpected ${prompt(t)}`);
    t = blitz.apply(t, p.options.includes('done') ? 'done' : p.options.includes('stop') ? 'stop' : p.options.at(-1)!).state;
  }
  return t;
}

describe('1.7 supply lines', () => {
  it('a line runs over friendly land and friendly seas to a home country: Belgium-Netherlands to London across the North Sea', () => {
    const s = bridgehead();
    const p = packOf(s.pack);
    expect(inSupply(p, s, '2nd-army')).toBe(true);
    // Gibraltar too, across the Western Approaches; no German-held area.
    expect(suppliedAreas(p, s, 'WA', 'great-britain', 'unit')).toEqual(new Set(['london', 'scotland', 'belgium-netherlands', 'gibraltar']));
  });

  it('a sea held alone by an enemy warship is not friendly, and the line is cut; units at sea are always in supply', () => {
    const s = bridgehead({ 'high-seas-fleet': { at: 'sea:north-sea' } });
    const p = packOf(s.pack);
    expect(friendlySea(p, s, 'north-sea', 'WA')).toBe(false);
    expect(inSupply(p, s, '2nd-army')).toBe(false);
    // A Western Allied ship in the North Sea makes it friendly again (1.5).
    const contested = arrange(s, { units: { 'north-sea-fleet': { at: 'sea:north-sea' } } });
    expect(friendlySea(p, contested, 'north-sea', 'WA')).toBe(true);
    expect(inSupply(p, contested, '2nd-army')).toBe(true);
    expect(inSupply(p, contested, 'north-sea-fleet')).toBe(true);
  });

  it('a land unit out of supply cannot move or attack', () => {
    // Paris emptied, so the 2nd Army has somewhere to go.
    const empty = { 'army-group-b': null, '7th-army': null, 'atlantic-wall': null };
    const supplied = alliedMoves(bridgehead(empty));
    expect(options(supplied)).toContain('move 2nd-army');
    const cut = alliedMoves(bridgehead({ ...empty, 'high-seas-fleet': { at: 'sea:north-sea' } }));
    expect(options(cut)).not.toContain('move 2nd-army');
    const canAttackWith = (t: BlitzState, unit: string) => {
      const announce = skipTo(play(t, 'done').state, 'announce-attack');
      return options(announce)
        .filter((o) => o.startsWith('attack '))
        .some((a) => options(play(announce, a).state).includes(`add ${unit}`));
    };
    expect(canAttackWith(supplied, '2nd-army')).toBe(true);
    expect(canAttackWith(cut, '2nd-army')).toBe(false);
  });

  it('each defending land unit out of supply gives the attackers two white triangles (6.2)', () => {
    const attack = (s: BlitzState) => {
      // Germany attacks Belgium-Netherlands from Western Germany with the Waffen SS Army.
      const a = skipTo(s, 'announce-attack');
      const r = play(a, 'attack belgium-netherlands', 'add waffen-ss-army', 'launch', 'done');
      const t = blitz.pending(r.state).kind === 'decision' && options(r.state).includes('done') ? play(r.state, 'done').state : r.state;
      const resolved = play(t, 'resolve belgium-netherlands').state;
      return resolved.combat!.log.at(-1) as { round: string; attRaw: number };
    };
    const inSup = attack(bridgehead());
    const cut = attack(bridgehead({ 'high-seas-fleet': { at: 'sea:north-sea' } }));
    expect(inSup.round).toBe('land');
    expect(cut.attRaw - inSup.attRaw).toBe(2);
  });

  it('a ship in a port out of supply moves only 1', () => {
    const s = bridgehead({ '12th-fleet': { at: 'belgium-netherlands' }, 'high-seas-fleet': { at: 'sea:north-sea' } });
    let u = s;
    for (let i = 0; i < 300 && prompt(u) !== 'WA:sea-pick'; i++) {
      const p = blitz.pending(u);
      if (p.kind !== 'decision') throw new Error(`unexpected ${prompt(u)}`);
      u = blitz.apply(u, p.options.includes('done') ? 'done' : p.options.includes('stop') ? 'stop' : p.options.at(-1)!).state;
    }
    const r = play(u, 'sail 12th-fleet');
    expect(options(r.state)).toEqual(['to north-sea']);
  });
});

describe('1.7 example: Germany has aligned the Near East', () => {
  // The full game with the Near East German-held, the Arab Legion (a Near East unit) and Army Group Center
  // in Iraq. With Allied warships alone in the Mediterranean and the Arabian Sea, and Turkey neutral, no
  // line runs from Iraq to Germany or Italy.
  const near = ['levant', 'iraq', 'persia', 'arabia'];
  const bed = (cut: boolean) =>
    arrange(blitz.setup('full', bundled), {
      control: Object.fromEntries(near.map((l) => [l, 'GER'])),
      units: {
        'arab-legion': { power: 'GER', at: 'iraq', size: 1 },
        'army-group-center': { at: 'iraq' },
        ...(cut ? { 'mediterranean-fleet': { at: 'sea:mediterranean' }, 'far-east-fleet': { at: 'sea:arabian-sea' } } : {}),
      },
    });

  it('the Near East unit traces its line from the Near East itself', () => {
    const s = bed(true);
    expect(inSupply(packOf(s.pack), s, 'arab-legion')).toBe(true);
  });

  it('Army Group Center must trace to Germany or Italy, and cannot', () => {
    const s = bed(true);
    expect(inSupply(packOf(s.pack), s, 'army-group-center')).toBe(false);
  });

  it('with the seas open it can (across the Mediterranean from Italy)', () => {
    const s = bed(false);
    expect(inSupply(packOf(s.pack), s, 'army-group-center')).toBe(true);
  });
});

/** The full game as set up, with `wars` added to its war matrix and `edit` arranged. */
function fullGame(wars: string[], edit: Parameters<typeof arrange>[1] = {}): BlitzState {
  const s = arrange(blitz.setup('full', bundled), edit);
  s.wars = [...s.wars!, ...wars].sort();
  return s;
}

describe('1.7: while the USA is at war, AFA and USA units may start their supply lines in each other\'s home countries', () => {
  // The BEF on Hawaii (a USA home area), Japan at war with the AFA and its warships alone on both seas
  // Hawaii touches (Micronesia, and the Gulf of Alaska with the USA Convoy at its maximum damage): no
  // line runs to it from any AFA home country.
  const hawaii = (wars: string[]) => {
    const s = fullGame(['AFA~JAP', ...wars], { units: { bef: { at: 'hawaii' }, 'combined-fleet': { power: 'JAP', at: 'sea:micronesia' }, '6th-fleet': { power: 'JAP', at: 'sea:gulf-of-alaska' } } });
    s.convoys = { ...s.convoys, 'usa-convoy': 1 };
    return s;
  };
  const p = packOf(blitz.setup('full', bundled).pack);

  it('the USA at peace: the BEF on Hawaii is out of supply', () => {
    expect(inSupply(p, hawaii([]), 'bef')).toBe(false);
  });

  it('the USA at war (with Germany): the BEF starts its line on Hawaii itself and is in supply', () => {
    expect(inSupply(p, hawaii(['GER~USA']), 'bef')).toBe(true);
  });

  it('7.8: building it up on the map is another matter: the AFA may not trace from a USA home country, at war or not', () => {
    expect(inSupply(p, hawaii(['GER~USA']), 'bef', 'power')).toBe(false);
  });

  it('the other way round: a USA army on Ceylon (India, an AFA home country) cut off by Japanese fleets is in supply once the USA is at war', () => {
    const ceylon = (wars: string[]) => {
      const s = fullGame(wars, { units: { 'us-1st-army': { at: 'ceylon' }, 'combined-fleet': { power: 'JAP', at: 'sea:arabian-sea' }, '2nd-fleet': { power: 'JAP', at: 'sea:bay-of-bengal' } } });
      s.convoys = { ...s.convoys, 'india-convoy': 1 };
      return s;
    };
    // At war with Japan, the seas are closed to the USA (1.5) but Ceylon is a source of its line.
    expect(inSupply(p, ceylon(['JAP~USA']), 'us-1st-army')).toBe(true);
    expect(inSupply(p, ceylon(['JAP~USA']), 'us-1st-army', 'power')).toBe(false);
  });
});

describe('7.8/1.7: an on-map unit its power cannot trace supply to is not built up; the AFA and the USA never trace from each other\'s home countries for it', () => {
  // The USA's builds at the end of Turn 2 (the 7.8 example's position) with the US 1st Army at Size 1 on
  // Ceylon; then, at the builds, the USA put at war with Japan and Japanese fleets alone on Ceylon's seas
  // (the Bay of Bengal Lend Lease unit, which the example has at sea there, in port on the West Coast).
  const builds = usaBuilds({ 'us-1st-army': { at: 'ceylon', size: 1 } });
  const cut = (): BlitzState => {
    const t = structuredClone(builds);
    t.wars = [...t.wars!, 'JAP~USA'].sort();
    t.units['combined-fleet'] = { ...t.units['combined-fleet']!, at: 'sea:arabian-sea' };
    t.units['2nd-fleet'] = { def: '2nd-fleet', power: 'JAP', size: 2, at: 'sea:bay-of-bengal' };
    t.units['bay-of-bengal-ll'] = { ...t.units['bay-of-bengal-ll']!, at: 'west-coast' }; // no USA unit left on those seas
    t.convoys = { ...t.convoys, 'india-convoy': 1 };
    return asked(t);
  };
  /** The builds' question asked again of the edited position. */
  const asked = (t: BlitzState): BlitzState => {
    advance(packOf(t.pack), t, []);
    return t;
  };

  it('with the seas open it is offered', () => {
    expect(options(builds)).toContain('repair us-1st-army');
  });

  it('cut off, it is not, though its own line (from Ceylon, an AFA home country, the USA being at war) would let it move and fight', () => {
    const t = cut();
    expect(inSupply(packOf(t.pack), t, 'us-1st-army')).toBe(true);
    expect(options(t)).not.toContain('repair us-1st-army');
    // Japan's fleets alone do not stop it: with the USA at peace they do not close the seas to it (1.5).
    const peace = cut();
    peace.wars = peace.wars!.filter((w) => w !== 'JAP~USA');
    expect(options(asked(peace))).toContain('repair us-1st-army');
  });
});

describe('1.7: a supply line to Oil and Resources (7.6) may cross land areas held by a neutral country; a unit\'s may not', () => {
  // The AFA holds Iraq (1 Oil). Japan, at war with the AFA, has a fleet alone in the Arabian Sea (the
  // India Convoy at its maximum damage), so Kuwait's and India's coasts are closed; Iraq's other
  // neighbours (the Levant, Arabia, Persia, Ankara) are neutral.
  const iraq = (holder: string) => {
    const s = fullGame(['AFA~JAP'], { control: { iraq: holder }, units: { '8th-army': { at: 'iraq' }, 'combined-fleet': { power: 'JAP', at: 'sea:arabian-sea' } } });
    s.convoys = { ...s.convoys, 'india-convoy': 1 };
    return s;
  };
  const p = packOf(blitz.setup('full', bundled).pack);

  it('the 8th Army in Iraq is out of supply: its line may not cross the neutral Levant', () => {
    expect(inSupply(p, iraq('AFA'), '8th-army')).toBe(false);
  });

  it('Iraq\'s Oil counts in the AFA\'s income: the line runs from Great Britain across the Mediterranean to Egypt and through the neutral Levant', () => {
    const held = turnIncome(p, iraq('AFA'), []).AFA!;
    const not = turnIncome(p, iraq('neutral'), []).AFA!;
    expect(held.oil - not.oil).toBe(1);
    expect(held.earmark).toEqual(not.earmark);
  });

  it('the land of a neutral major power counts too: Germany\'s line to Persia\'s Oil runs through the neutral USSR, until the two are at war', () => {
    // Germany holds Persia; Turkey is the AFA's and AFA fleets hold the Mediterranean and the Arabian Sea,
    // so only the USSR's Caucasus leads there.
    const persia = (wars: string[]) =>
      fullGame(wars, {
        control: { persia: 'GER', ankara: 'AFA', istanbul: 'AFA' },
        units: { 'mediterranean-fleet': { at: 'sea:mediterranean' }, 'far-east-fleet': { at: 'sea:arabian-sea' }, 'north-sea-fleet': { at: 'sea:black-sea' } },
      });
    expect(landsReachedFrom(p, persia([]), 'GER', new Set(['germany', 'italy'])).has('persia')).toBe(true);
    expect(suppliedAreas(p, persia([]), 'GER', 'germany', 'unit').has('persia')).toBe(false);
    const war = persia(['GER~USSR']);
    war.neutral = war.neutral!.filter((x) => x !== 'USSR');
    expect(landsReachedFrom(p, war, 'GER', new Set(['germany', 'italy'])).has('persia')).toBe(false);
  });
});

describe('7.6 step 5/1.7: a trade counts only if its recipient can trace a supply line to the Oil or Resources, across neutral land too', () => {
  // Sweden's Resource to Germany (7.5). AFA warships alone in the Baltic, the North Sea and the Arctic
  // Ocean (the Ger-Swe Convoy at its maximum damage) close the sea routes to Sweden and Norway; the land
  // route runs through the neutral USSR and Finland.
  const sweden = (wars: string[]) => {
    const s = fullGame(wars, {
      units: { 'north-sea-fleet': { at: 'sea:baltic-sea' }, 'north-atlantic-fleet': { at: 'sea:north-sea' }, 'mediterranean-fleet': { at: 'sea:arctic-ocean' } },
    });
    s.convoys = { ...s.convoys, 'ger-swe-convoy': 1 };
    if (wars.includes('GER~USSR')) s.neutral = s.neutral!.filter((x) => x !== 'USSR');
    return s;
  };
  const p = packOf(blitz.setup('full', bundled).pack);

  it('with the seas closed the line runs through the neutral USSR and Finland: the Resource arrives', () => {
    expect(turnIncome(p, sweden([]), []).GER!.lines['trade:sweden']).toBe(1);
  });

  it('with the USSR at war with Germany as well, no line reaches Sweden and the Resource does not arrive', () => {
    expect(turnIncome(p, sweden(['GER~USSR']), []).GER!.lines['trade:sweden']).toBeUndefined();
  });
});
