/**
 * 4.3 blocking, 4.4 sea area combat and 6.3 Naval Rounds, with Convoys (3.5, 6.5), on the sea test
 * bed (Scenario B's map with the North Atlantic and sea combat switched on; see support/sea-test-pack.ts).
 * The rulebook's own examples are the first two suites.
 */
import { describe, expect, it } from 'vitest';
import { checkConformance } from '@salient/engine/testing';
import { blitz } from '../../src/index.ts';
import type { PackFiles } from '../../src/pack/schema.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import { arrange, eventsOf, options, play, prompt, skipTo, checkedPack, type Run } from '../helpers.ts';
import { seaTestFiles, seaTestPack } from '../support/sea-test-pack.ts';

const pack = seaTestPack();
const start = (): BlitzState => blitz.setup('B', pack);
/** Pass every decision (done/stop) until something else than a decision is pending or `prompts` is asked. */
const until = (s: BlitzState, ...prompts: string[]) => skipTo(s, ...prompts);
const seaLog = (r: Run | BlitzState): Record<string, unknown>[] => {
  const s: BlitzState = 'ask' in r ? (r as BlitzState) : (r as Run).state;
  if (s.sea) return s.sea.log;
  const c = ((r as Run).events ?? []).filter((e) => e.type === 'combat' && e.data?.kind === 'sea');
  return (c.at(-1)?.data?.rounds as unknown as Record<string, unknown>[]) ?? [];
};

describe('6.3 worked example: U-Boat II in the North Atlantic', () => {
  it('U-Boat II fires with 3 + 1 (white triangle) + 2 (Convoy) - 1 (its damage) = 5; the AFA with 2 (Canadian Air Force, half its Strategic 4) + 5 - 3 red = 4', () => {
    const s0 = structuredClone(start());
    s0.convoys!['north-atlantic-convoy'] = 1;
    const s = arrange(s0, {
      units: {
        'u-boat-ii': { at: 'sea:north-atlantic' },
        'canadian-air-force': { at: 'sea:north-atlantic' },
        'north-sea-fleet': { at: 'sea:north-atlantic' },
      },
    });
    const atCombat = until(s);
    expect(prompt(atCombat)).toBe('chance:naval-round-attacker-die');
    const [naval] = seaLog(atCombat);
    expect(naval).toMatchObject({ round: 'naval', attackers: ['u-boat-ii'], defenders: ['canadian-air-force', 'north-sea-fleet'], attFactors: 5, defFactors: 4 });
  });
});

describe('4.3/C.3 worked example: the High Seas Fleet leaves Paris for the North Atlantic past Coastal Command', () => {
  const ready = () => {
    const s = arrange(start(), { units: { 'high-seas-fleet': { at: 'paris' }, 'coastal-command': { at: 'sea:western-approaches' } } });
    const r = play(until(s, 'sea-pick'), 'sail high-seas-fleet', 'to north-atlantic');
    expect(prompt(r.state)).toBe('chance:blockade-die');
    expect(r.state.units['high-seas-fleet']!.at).toBe('sea:western-approaches');
    expect(r.state.passage).toMatchObject({ unit: 'high-seas-fleet', total: 2 });
    return r.state;
  };

  it('a roll of 3-6 beats the Blockade Value of 2: it sails on into the North Atlantic', () => {
    for (const die of [3, 6]) {
      const r = play(ready(), `die ${die}`);
      expect(r.state.units['high-seas-fleet']!.at).toBe('sea:north-atlantic');
      expect(eventsOf(r, 'blockade-passed')[0]!.data).toMatchObject({ unit: 'high-seas-fleet', sea: 'western-approaches', die, total: 2 });
    }
  });

  it('a roll of 1-2 blocks it in the Western Approaches', () => {
    for (const die of [1, 2]) {
      const r = play(ready(), `die ${die}`);
      expect(r.state.units['high-seas-fleet']!.at).toBe('sea:western-approaches');
      expect(eventsOf(r, 'blocked')).toHaveLength(1);
    }
  });

  it('3.5: the France Convoy there is Destroyed (France is conquered), so only Coastal Command fights the blocked fleet, and the fleet has nothing to fire at', () => {
    const r = play(ready(), 'die 1');
    const s = until(r.state);
    expect(s.sea?.sea).toBe('western-approaches');
    const [naval] = seaLog(s);
    // Coastal Command: Naval 2 + the fleet's white triangle against it; the fleet: no enemy ship or live Convoy to hit.
    expect(naval).toMatchObject({ round: 'naval', attackers: [], defenders: ['coastal-command'], attFactors: 0, defFactors: 3 });
    expect(prompt(s)).toBe('chance:naval-round-defender-die');
  });

  it('a SUB is never blocked', () => {
    const s = arrange(start(), { units: { 'u-boat-ii': { at: 'paris' }, 'coastal-command': { at: 'sea:western-approaches' } } });
    const r = play(until(s, 'sea-pick'), 'sail u-boat-ii', 'to north-atlantic');
    expect(r.state.units['u-boat-ii']!.at).toBe('sea:north-atlantic');
    expect(r.state.passage ?? null).toBeNull();
  });
});

describe('4.2 straits: the Mediterranean lies past Gibraltar', () => {
  const destinations = (s: BlitzState, unit: string) => {
    const r = play(until(s, 'sea-pick'), `sail ${unit}`);
    return options(r.state);
  };
  it('open to the side holding Gibraltar, closed to its enemy, open again once the enemy loses it', () => {
    const s = arrange(start(), { units: { 'high-seas-fleet': { at: 'paris' } } });
    expect(destinations(s, 'high-seas-fleet')).not.toContain('to mediterranean');
    expect(destinations(arrange(s, { control: { gibraltar: 'GER' } }), 'high-seas-fleet')).toContain('to mediterranean');
  });
});

describe('4.4/C.4 sea area combat', () => {
  it('the other side flies Naval-primary air in; with air or CVs on both sides an Air Round comes first, then the Naval Round', () => {
    const s = arrange(start(), {
      units: {
        'high-seas-fleet': { at: 'sea:western-approaches' },
        'graf-zeppelin': { power: 'GER', size: 2, at: 'sea:western-approaches' },
        'north-sea-fleet': { at: 'sea:western-approaches' },
        'coastal-command': { at: 'london' },
      },
    });
    const asked = until(s, 'fly-to-sea-combat');
    expect(prompt(asked)).toBe('WA:fly-to-sea-combat');
    expect(options(asked)).toEqual(['fly coastal-command', 'done']);
    // Once it has flown there is nothing else to fly in, so the combat goes straight on.
    const r = play(asked, 'fly coastal-command');
    expect(r.state.units['coastal-command']!.at).toBe('sea:western-approaches');
    const [air] = seaLog(r);
    // Air Round: the Graf Zeppelin (CV, Air 2) against Coastal Command (Air 1).
    expect(air).toMatchObject({ round: 'air', attackers: ['graf-zeppelin'], defenders: ['coastal-command'], attFactors: 2, defFactors: 1 });
    // A miss on both sides, then the Naval Round: the fleet 4 + CV 2 + the North Sea Fleet's white triangle;
    // the North Sea Fleet 5 + Coastal Command 2 + the High Seas Fleet's white triangle.
    const missAtt = dieWith(2, (x) => x.damage === 0 && !x.letter);
    const missDef = dieWith(1, (x) => x.damage === 0 && !x.letter);
    const r2 = play(r.state, missAtt, missDef);
    const naval = seaLog(r2)[1];
    expect(naval).toMatchObject({ round: 'naval', attackers: ['graf-zeppelin', 'high-seas-fleet'], defenders: ['coastal-command', 'north-sea-fleet'], attFactors: 7, defFactors: 8 });
  });

  it('1.4 Snow at sea (estimated): on a Snow turn in a sea with a Snow icon no air unit flies in, there is no Air Round, and air units there add nothing; CVs fight as ships', () => {
    const files = seaTestFiles();
    files.map.seas.find((x) => x.id === 'western-approaches')!.snow = true; // test value: the bundled map has no Snow there
    const b = files.scenarios.scenarios.find((x) => x.id === 'B')!;
    const setup = (turns: number[]) => {
      b.snowTurns = turns;
      const s0 = blitz.setup('B', checkedPack(files, 'snowy sea test pack'));
      return arrange(s0, {
        units: {
          'high-seas-fleet': { at: 'sea:western-approaches' },
          'graf-zeppelin': { power: 'GER', size: 2, at: 'sea:western-approaches' },
          'north-sea-fleet': { at: 'sea:western-approaches' },
          'canadian-air-force': { at: 'sea:western-approaches' },
          'coastal-command': { at: 'london' },
        },
      });
    };
    const s = setup([]);
    const turn = s.turn;
    // Without Snow the WA is asked whether Coastal Command flies in (the fair-weather case above).
    expect(prompt(until(s, 'fly-to-sea-combat'))).toBe('WA:fly-to-sea-combat');
    const snow = until(setup([turn]), 'fly-to-sea-combat');
    expect(prompt(snow)).not.toBe('WA:fly-to-sea-combat');
    const [first] = seaLog(snow);
    // The Naval Round at once, the CV firing as a ship and the Canadian Air Force (an air unit in the sea) not at all.
    expect(first).toMatchObject({ round: 'naval', attackers: ['graf-zeppelin', 'high-seas-fleet'], defenders: ['north-sea-fleet'] });
    expect(snow.units['coastal-command']!.at).toBe('london');
  });

  it('a SUB of the other side may slip back to base instead of fighting; its owner picks the port', () => {
    let s = arrange(start(), { units: { 'u-boat-ii': { at: 'sea:north-sea' }, 'high-seas-fleet': { at: 'berlin' } } });
    s = until(s, 'sea-pick');
    // The Axis pass; the Western Allies sail the North Sea Fleet from Scotland onto the U-Boat.
    while (blitz.position(s).impulse === 1) s = until(play(s, options(s).includes('done') ? 'done' : options(s)[0]!).state, 'sea-pick');
    const r = play(s, 'sail north-sea-fleet', 'to north-sea', 'done');
    expect(prompt(r.state)).toBe('GER:sub-evasion');
    const r2 = play(r.state, 'evade u-boat-ii');
    expect(prompt(r2.state)).toBe('GER:return-to-base-where');
    // Ports of friendly areas within its movement (3) where it can stack: Vichy France's small port too.
    expect(options(r2.state)).toEqual(['base belgium-netherlands', 'base paris', 'base vichy-france', 'base western-germany']);
    const r3 = play(r2.state, 'base belgium-netherlands');
    expect(r3.state.units['u-boat-ii']!.at).toBe('belgium-netherlands');
    expect(eventsOf(r3, 'return-to-base')[0]!.data).toMatchObject({ unit: 'u-boat-ii', to: 'belgium-netherlands', forced: true });
    // Nothing left to fight: the combat ends without a round.
    expect(r3.state.sea ?? null).toBeNull();
    expect(seaLog(r3)).toEqual([]);
  });

  it('a Convoy is hit like a ship, up to its Convoy Factor a turn; a letter it cannot obey costs it a point instead; damage is cleared at the end of the turn', () => {
    const s = arrange(start(), { units: { 'high-seas-fleet': { at: 'sea:north-atlantic' } } });
    const atCombat = until(s);
    const [naval] = seaLog(atCombat);
    // 4 Naval + the Convoy Factor 2; the Convoy alone never fires.
    expect(naval).toMatchObject({ round: 'naval', attackers: ['high-seas-fleet'], defenders: [], attFactors: 6, defFactors: 0 });
    const die = dieWith(6, (x) => x.damage >= 1);
    const r = play(atCombat, die);
    const hits = eventsOf(r, 'convoy-damage');
    expect(hits.length).toBeGreaterThanOrEqual(1);
    expect(hits.length).toBeLessThanOrEqual(2); // at most its Convoy Factor this turn
    expect(r.state.convoys!['north-atlantic-convoy']).toBe(hits.length);
    // Play on to the next turn: the damage is gone.
    let t = r.state;
    for (let i = 0; i < 2000 && blitz.position(t).turn === 9; i++) {
      const p = blitz.pending(t);
      if (p.kind === 'terminal') break;
      const c = p.kind === 'chance' ? 'die 1' : p.options.includes('done') ? 'done' : p.options.includes('stop') ? 'stop' : p.options[0]!;
      t = blitz.apply(t, c).state;
    }
    expect(blitz.position(t).turn).toBe(10);
    expect(t.convoys!['north-atlantic-convoy']).toBe(0);
  });

  it('a letter result on a Convoy that cannot return to base costs it a point of damage', () => {
    const s = arrange(start(), { units: { 'high-seas-fleet': { at: 'sea:north-atlantic' } } });
    const die = dieWith(6, (x) => x.damage === 0 && (x.letter === 'L' || x.letter === 'B'));
    const r = play(until(s), die);
    expect(eventsOf(r, 'convoy-damage').map((e) => e.data!.why)).toEqual(['a Convoy cannot return to base']);
  });
});

describe('C.1/C.2 air units at sea (scenarios with sea combat)', () => {
  it('air units with a range of 2 or more may move to sea, a sea costing 2; range-1 air may not', () => {
    const s = until(start(), 'sea-pick');
    let t = s;
    while (blitz.position(t).impulse === 1) t = until(play(t, options(t).includes('done') ? 'done' : options(t)[0]!).state, 'sea-pick');
    expect(options(t)).toContain('sail coastal-command');
    expect(options(t)).toContain('sail canadian-air-force');
    expect(options(t).some((o) => o === 'sail royal-air-force')).toBe(false); // range 1
    const r = play(t, 'sail coastal-command');
    // From London: the North Sea and the Western Approaches cost 2; the North Atlantic would cost 4.
    expect(options(r.state)).toEqual(['to north-sea', 'to western-approaches']);
  });

  it('an air unit at sea may return to base at a friendly land area in its range', () => {
    let s = arrange(start(), { units: { 'coastal-command': { at: 'sea:north-sea' } } });
    while (blitz.position(s).impulse === 1 || prompt(s) !== 'WA:return-pick') {
      const p = blitz.pending(s);
      if (p.kind !== 'decision') throw new Error(`unexpected ${prompt(s)}`);
      s = play(s, p.options.includes('done') ? 'done' : p.options.includes('stop') ? 'stop' : p.options[0]!).state;
    }
    expect(options(s)).toEqual(['return coastal-command', 'done']);
    const r = play(s, 'return coastal-command');
    expect(options(r.state)).toEqual(['to london', 'to scotland']);
  });
});

describe('4.4 on random games', () => {
  it('the test bed passes the conformance kit on 40 seeds, and sea combats happen', () => {
    const report = checkConformance(blitz, { pack, scenario: 'B', seeds: Array.from({ length: 40 }, (_, i) => i + 1), deepEvery: 5 });
    expect(report.playouts).toHaveLength(40);
    // Random playouts of our own that count sea combats and blockade rolls.
    let seaCombats = 0;
    let blockades = 0;
    for (let seed = 1; seed <= 20; seed++) {
      let x = seed * 7919;
      const next = (n: number) => ((x = (x * 48271) % 2147483647), x % n);
      let st = start();
      for (let i = 0; i < 5000; i++) {
        const p = blitz.pending(st);
        if (p.kind === 'terminal') break;
        const c = p.kind === 'chance' ? p.outcomes[next(p.outcomes.length)]!.outcome : p.options[next(p.options.length)]!;
        const step = blitz.apply(st, c);
        seaCombats += step.events.filter((e) => e.type === 'combat' && e.data?.kind === 'sea').length;
        blockades += step.events.filter((e) => e.type === 'blocked' || e.type === 'blockade-passed').length;
        st = step.state;
      }
      expect(blitz.pending(st).kind).toBe('terminal');
    }
    expect(seaCombats).toBeGreaterThan(0);
    expect(blockades).toBeGreaterThanOrEqual(0);
  });
});

import { chartResult } from '../../src/rules/combat-chart.ts';
/** A die face giving a result on the test bed's chart column for `total`. */
function dieWith(total: number, want: (r: { damage: number; letter: string | null }) => boolean): string {
  for (let d = 1; d <= 6; d++) if (want(chartResult(pack.data['combat-chart'], total, d))) return `die ${d}`;
  throw new Error(`no die gives the wanted result on column ${total}`);
}

describe('4.4 example: the USA and Japan fight in the East China Sea', () => {
  // Scenario E on a test bed: the 4.4 example has the USA's 12th Fleet fight the Japanese Naval Air in
  // an Air Round, so it has Air Factors, a carrier; the bundled pack estimates it as a BB (named in the
  // text without stats), which would fight no Air Round. Here it is a CV with made-up factors (Air 2,
  // Naval 3 at Size 2): a synthetic test value, not the published counter. See WORKED-EXAMPLES.md.
  const pacific = (() => {
    const files = structuredClone(blitz.bundledPacks.approximation) as PackFiles;
    files.pack = { ...files.pack, id: 'pacific-sea-test', fidelity: 'synthetic', description: 'Scenario E with the 12th Fleet as a carrier (test only).' };
    const twelfth = files.units.units.find((u) => u.id === '12th-fleet')!;
    twelfth.type = 'CV';
    twelfth.sizes = { '1': { move: 2, air: 1, naval: 2, blockade: 1 }, '2': { move: 2, air: 2, naval: 3, blockade: 1 } };
    return checkedPack(files, 'test pack');
  })();
  const atCombat = () =>
    until(arrange(blitz.setup('E', pacific), { units: { '12th-fleet': { power: 'WA', at: 'sea:east-china-sea', size: 2 }, 'naval-air': { at: 'sea:east-china-sea', size: 2 } } }));

  it('first an Air Round: the Naval Air against the 12th Fleet', () => {
    const s = atCombat();
    expect(s.sea?.sea).toBe('east-china-sea');
    const [air] = seaLog(s);
    expect(air).toMatchObject({ round: 'air', attackers: ['naval-air'], defenders: ['12th-fleet'] });
  });

  it('then a Naval Round: the 12th Fleet can hit only the Japanese Convoy (the Naval Air is an air unit), the Naval Air hits the 12th Fleet', () => {
    const s = atCombat();
    const [air] = seaLog(s);
    const miss = (n: unknown) => dieWithOn(pacific, n as number, (x) => x.damage === 0 && x.letter === null);
    const r = play(s, miss(air!.attFactors), miss(air!.defFactors));
    const naval = seaLog(r)[1]!;
    expect(naval).toMatchObject({ round: 'naval', attackers: ['naval-air'], defenders: ['12th-fleet'] });
    const hit = (n: unknown) => dieWithOn(pacific, n as number, (x) => x.damage === 1 && x.letter === null);
    const r2 = play(r.state, hit(naval.attFactors), hit(naval.defFactors));
    expect(eventsOf(r2, 'convoy-damage').map((e) => e.data!.convoy)).toEqual(['japan-convoy']);
    expect(eventsOf(r2, 'loss').map((e) => e.data!.unit)).toEqual(['12th-fleet']);
    expect(r2.state.units['naval-air']!.size).toBe(2);
  });
});

/** A die face giving a result on `pk`'s chart column for `total`. */
function dieWithOn(pk: ReturnType<typeof seaTestPack>, total: number, want: (r: { damage: number; letter: string | null }) => boolean): string {
  for (let d = 1; d <= 6; d++) if (want(chartResult(pk.data['combat-chart'], total, d))) return `die ${d}`;
  throw new Error(`no die gives the wanted result on column ${total}`);
}
