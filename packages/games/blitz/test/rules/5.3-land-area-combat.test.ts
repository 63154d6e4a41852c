/** 5.3 (A.6): announcing Ground Attacks, committing attackers and defenders, ranges and the support cap. */
import { describe, expect, it } from 'vitest';
import { blitz } from '../../src/index.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import { arrange, combatLog, options, pack, play, prompt, skipTo, start, until } from '../helpers.ts';
import { factoryTestPack } from '../support/factory-test-pack.ts';

describe('5.3 land area combat', () => {
  it('the Luftwaffe in Berlin (range 1) can reach Poland but not Belgium-Netherlands (A.6 example)', () => {
    const s = skipTo(start('A'), 'move-pick');
    const r = play(s, 'declare belgium-netherlands', 'done', 'attack belgium-netherlands');
    expect(options(r.state)).toContain('add 18th-army');
    expect(options(r.state)).not.toContain('add luftwaffe');
    const r2 = play(r.state, 'add 18th-army', 'launch', 'attack poland');
    expect(options(r2.state)).toContain('add luftwaffe');
  });

  it('a unit joins one combat only; a FORT never attacks; launching needs a land unit', () => {
    const s = skipTo(arrange(start('A'), { units: { 'maginot-line': { at: 'western-germany', power: 'GER' } } }), 'announce-attack');
    const r = play(s, 'attack poland');
    expect(options(r.state)).not.toContain('launch');
    expect(options(r.state)).not.toContain('add maginot-line');
    const r2 = play(r.state, 'add luftwaffe');
    expect(options(r2.state)).not.toContain('launch'); // air alone is no Ground Attack
    const r3 = play(r2.state, 'add army-group-center', 'launch');
    expect(prompt(r3.state)).toBe('GER:announce-attack');
    // Paris is in reach from Western Germany: the units already committed to Poland are not offered again.
    const r4 = play(arrange(r3.state, { units: { 'army-group-north': { at: 'western-germany' } } }), 'attack paris');
    expect(options(r4.state)).toContain('add army-group-north');
    expect(options(r4.state)).not.toContain('add army-group-center');
  });

  it('the defender may commit air units in range; the attacker resolves in any order', () => {
    const s = skipTo(arrange(start('A'), { units: { luftwaffe: { at: 'western-germany' }, 'armee-de-l-air': { at: 'paris' } } }), 'announce-attack');
    const r = play(s, 'attack paris', 'add 18th-army', 'add luftwaffe', 'launch', 'attack poland', 'add army-group-center', 'launch', 'done');
    expect(prompt(r.state)).toBe('AFA:commit-defence');
    expect(options(r.state)).toEqual(['defend paris armee-de-l-air', 'defend paris royal-air-force', 'done']);
    const r2 = play(r.state, 'defend paris royal-air-force', 'done');
    expect(prompt(r2.state)).toBe('GER:resolve-order');
    expect(options(r2.state)).toEqual(['resolve paris', 'resolve poland']);
  });

  it('5.3: an announced attack whose target is no longer enemy-held when its turn comes is called off, with no rounds', () => {
    const s = skipTo(arrange(start('A'), { units: { luftwaffe: { at: 'western-germany' } } }), 'announce-attack');
    const r = play(s, 'attack paris', 'add 18th-army', 'add luftwaffe', 'launch', 'attack poland', 'add army-group-center', 'launch', 'done', 'done');
    expect(prompt(r.state)).toBe('GER:resolve-order');
    // Paris stops being the AFA's before its attack is resolved (France's fall makes such areas neutral).
    const q = play(arrange(r.state, { control: { paris: 'neutral' } }), 'resolve paris');
    const off = q.events.find((e) => e.type === 'attack-called-off');
    expect(off?.data).toMatchObject({ target: 'paris', holder: 'neutral' });
    expect(q.events.some((e) => e.type === 'combat-start' || e.type === 'combat')).toBe(false);
    expect(q.state.attacks.find((a) => a.target === 'paris')!.resolved).toBe(true);
    expect(q.state.units['18th-army']!.committed).toBeUndefined();
    expect(q.state.units['18th-army']!.at).not.toBe('paris');
    expect(options(q.state)).toEqual(['resolve poland']);
  });

  it("air support cannot exceed the attacking land units' Land Factors", () => {
    // The 1st Para (LF 1) with the Stukas (LF 4) and Luftwaffe (LF 3) against Poland: support capped at 1.
    const s = skipTo(start('A'), 'announce-attack');
    const r = play(s, 'attack poland', 'add 1st-para', 'add stukas', 'add luftwaffe', 'launch', 'done', 'resolve poland');
    const land = r.state.combat!.log.at(-1)!;
    // 1 (Para) + min(7 halved in Forest = 3.5, 1) = 2
    expect(land.attRaw).toBe(2);
  });
});

/** The full game at the first question of `power`'s `prompt`, after `edit` (and with `turn` set). */
function full(edit: Parameters<typeof arrange>[1], power: string, prompt_: string, turn = 1): BlitzState {
  const s0 = structuredClone(blitz.setup('full', pack));
  s0.turn = turn;
  return until(arrange(s0, edit), power, prompt_);
}

/** The French units in Paris at the start of the full game, taken off so that Germany may hold it. */
const parisEmptied = { 'maginot-line': null, 'french-1st-army': null, 'french-7th-army': null, 'armee-de-l-air': null, bef: null };

describe('5.3 example: the North Atlantic Fleet looks for a Port Attack', () => {
  // The full game: the AFA's North Atlantic Fleet (a CV) at sea in the Western Approaches; Germany holds
  // Paris, whose port is on the Western Approaches, and Rome's port is on the Mediterranean only.
  const bed = (inParis: string) =>
    full(
      {
        control: { paris: 'GER' },
        units: { ...parisEmptied, 'north-atlantic-fleet': { at: 'sea:western-approaches' }, [inParis]: { at: 'paris' }, 'italian-fleet': { at: 'rome' } },
      },
      'AFA',
      'announce-attack',
    );

  it('U-Boat II in Paris cannot be Port Attacked: SUBs never can', () => {
    const s = bed('u-boat-ii');
    expect(s.units['u-boat-ii']!.at).toBe('paris');
    expect(options(s)).not.toContain('raid paris');
  });

  it('a battleship fleet in a port that touches only the Mediterranean cannot be reached from the Western Approaches', () => {
    const s = bed('u-boat-ii');
    expect(options(s)).not.toContain('raid rome');
  });

  it('whereas a battleship fleet in Paris could be (the carrier is in the sea its port touches)', () => {
    const s = bed('high-seas-fleet');
    expect(options(s)).toContain('raid paris');
    expect(options(play(s, 'raid paris').state)).toContain('add north-atlantic-fleet');
  });
});

describe('5.3 example: the Soviet Ground Attack on Ankara (Turn 4)', () => {
  // The neutral USSR declares war on Turkey, which joins Germany; Germany is not at war with the USSR.
  // German Stukas stand in a German-held Levant, next to Ankara; Soviet fronts in the Caucasus Mountains.
  const edit = {
    control: { levant: 'GER' },
    units: { stukas: { at: 'levant' }, 'southern-front': { at: 'caucasus-mountains', size: 1 }, 'southwestern-front': { at: 'caucasus-mountains', size: 3 } },
  };
  const declared = () => play(full(edit, 'USSR', 'move-pick', 4), 'declare turkey').state;

  it('Turkey joins Germany with its army in Ankara; Germany and the USSR stay at peace', () => {
    const s = declared();
    expect(s.control.ankara).toBe('GER');
    expect(s.units['turkish-1st-army']).toMatchObject({ power: 'GER', at: 'ankara' });
    expect(s.wars).toContain('USSR~turkey');
    expect(s.wars).not.toContain('GER~USSR');
  });

  /** The USSR attacks Ankara; returns the defence question, or null if nobody may commit support. */
  const attackAnkara = (s0: BlitzState) => {
    const s = until(s0, 'USSR', 'announce-attack');
    let r = play(s, 'attack ankara', 'add southwestern-front', 'launch', 'done').state;
    // 5.3: a round brought an attack, so the Allies' powers get another round to announce; all pass.
    for (let q = blitz.pending(r); q.kind === 'decision' && q.prompt === 'announce-attack'; q = blitz.pending(r)) r = play(r, 'done').state;
    return r;
  };

  it('the Stukas cannot join the defence, Germany not being at war with the USSR; the Turkish army defends', () => {
    const s = attackAnkara(declared());
    const asked = blitz.pending(s);
    const defence = asked.kind === 'decision' && asked.prompt === 'commit-defence' ? asked.options : [];
    expect(defence).not.toContain('defend ankara stukas');
    const fought = play(until(s, 'USSR', 'resolve-order'), 'resolve ankara');
    const land = combatLog(fought).find((x) => x.round === 'land')!;
    expect(land.defenders).toEqual(['turkish-1st-army']);
  });

  it('once Germany is at war with the USSR, the Stukas may fight the Soviet units', () => {
    const s = structuredClone(declared());
    s.wars = [...s.wars!, 'GER~USSR'].sort();
    const at = attackAnkara(arrange(s, {}));
    expect(prompt(at)).toBe('GER:commit-defence');
    expect(options(at)).toContain('defend ankara stukas');
  });
});

describe('5.3 example: air over Persia on a Snow turn', () => {
  // Scenario D on its first Snow turn: Germany holds the Caucasus Mountains (USSR, Snow) with an army
  // and the Luftwaffe; Persia (the Near East) has no Snow.
  const snowTurn = (): BlitzState => {
    const s0 = structuredClone(blitz.setup('D', pack));
    s0.turn = pack.data.scenarios.scenarios.find((x) => x.id === 'D')!.snowTurns![0]!;
    return until(
      arrange(s0, { control: { 'caucasus-mountains': 'GER' }, units: { '18th-army': { at: 'caucasus-mountains', size: 2 }, luftwaffe: { at: 'caucasus-mountains', size: 2 } } }),
      'GER',
      'announce-attack',
    );
  };

  it('the Luftwaffe in the Caucasus may support an attack on Persia', () => {
    expect(options(play(snowTurn(), 'attack persia').state)).toContain('add luftwaffe');
  });

  it('but not one on Stalingrad, in the USSR, where it snows', () => {
    const r = play(snowTurn(), 'attack stalingrad');
    expect(options(r.state)).toContain('add 18th-army');
    expect(options(r.state)).not.toContain('add luftwaffe');
  });
});

describe('5.3 example: three Soviet land units attack the Persian Army in Mountain Persia', () => {
  it('the Persian Army (0 Land Factors) fires with 3: one white triangle for each attacking land unit', () => {
    const s = full({ units: { 'southern-front': { at: 'caucasus-mountains', size: 1 }, 'nkvd-troops': { at: 'caucasus-mountains' }, 'northwestern-front': { at: 'caucasus-mountains', size: 2 } } }, 'USSR', 'move-pick');
    const d = play(s, 'declare near-east').state;
    expect(d.units['persian-army']!.at).toBe('persia');
    const a = until(d, 'USSR', 'announce-attack');
    const r = play(a, 'attack persia', 'add southern-front', 'add nkvd-troops', 'add northwestern-front', 'launch', 'done');
    const land = combatLog(play(until(r.state, 'USSR', 'resolve-order'), 'resolve persia')).find((x) => x.round === 'land')!;
    expect(land.defenders).toEqual(['persian-army']);
    expect(land.defRaw).toBe(3);
    expect(land.defFactors).toBe(3);
  });
});

describe('5.3 example: the Western Allies and the USSR both want Western Germany', () => {
  // The full game with the USA and the USSR at war with Germany; a Soviet front holds Austria-Czechoslovakia,
  // next to Western Germany, and the AFA's French armies stand in Paris, on its other side.
  const bed = (): BlitzState => {
    const s0 = structuredClone(blitz.setup('full', pack));
    s0.wars = [...s0.wars!, 'GER~USA', 'GER~USSR'].sort();
    s0.neutral = [];
    return until(
      arrange(s0, { control: { 'austria-czechoslovakia': 'USSR' }, units: { 'western-front': { power: 'USSR', at: 'austria-czechoslovakia', size: 3 } } }),
      'AFA',
      'announce-attack',
    );
  };

  it('the USSR may attack Western Germany if the AFA do not...', () => {
    const s = until(play(bed(), 'done').state, 'USSR', 'announce-attack');
    expect(options(s)).toContain('attack western-germany');
  });

  it('...but not once the AFA have announced a Ground Attack on it: only one of the two goes ahead', () => {
    const r = play(bed(), 'attack western-germany', 'add french-1st-army', 'launch', 'done');
    const s = until(r.state, 'USSR', 'announce-attack');
    expect(options(s)).not.toContain('attack western-germany');
  });
});

describe('5.3 example: the AFA and the USA attack Western Germany together (Factory and Ground Attacks)', () => {
  // On a test bed whose Western Germany has a Factory (the bundled pack gives it none, P3): the full
  // game, the USA and the USSR at war with Germany; AFA and USA armies and air units in Paris, next to
  // Western Germany; a Soviet front in Austria-Czechoslovakia, on its other side.
  const tp = factoryTestPack();
  const bed = (usaAtWar = true): BlitzState => {
    const s0 = structuredClone(blitz.setup('full', tp));
    s0.wars = [...s0.wars!, ...(usaAtWar ? ['GER~USA'] : []), 'GER~USSR'].sort();
    s0.neutral = usaAtWar ? [] : ['USA'];
    return until(
      arrange(s0, {
        control: { 'austria-czechoslovakia': 'USSR' },
        units: {
          'western-front': { power: 'USSR', at: 'austria-czechoslovakia', size: 3 },
          'bomber-command': { power: 'AFA', at: 'paris', size: 2 },
          '8th-air-force': { power: 'USA', at: 'paris', size: 2 },
          '1st-tactical-air-force': { power: 'USA', at: 'paris', size: 2 },
          '9th-army': { power: 'USA', at: 'paris', size: 2 },
        },
      }),
      'AFA',
      'announce-attack',
    );
  };
  /** The AFA announce a Factory Attack and a Ground Attack on Western Germany, then pass to the USA. */
  const afaAnnounces = (s: BlitzState) =>
    until(play(s, 'bomb western-germany', 'add bomber-command', 'launch', 'attack western-germany', 'add french-1st-army', 'launch', 'done').state, 'USA', 'announce-attack');

  it('one power may announce a Factory Attack and a Ground Attack on the same area, each kind once', () => {
    const s = bed();
    expect(options(s)).toEqual(expect.arrayContaining(['bomb western-germany', 'attack western-germany']));
    const r = play(s, 'bomb western-germany', 'add bomber-command', 'launch');
    expect(options(r.state)).toContain('attack western-germany');
    expect(options(r.state)).not.toContain('bomb western-germany');
    const r2 = play(r.state, 'attack western-germany', 'add french-1st-army', 'launch');
    expect(options(r2.state)).not.toContain('attack western-germany');
  });

  it('the USA joins both AFA attacks with its own units, and may not announce a second attack of either kind', () => {
    const s = afaAnnounces(bed());
    expect(options(s)).toEqual(expect.arrayContaining(['join western-germany factory', 'join western-germany']));
    expect(options(s)).not.toContain('bomb western-germany');
    expect(options(s)).not.toContain('attack western-germany');
    const bomb = play(s, 'join western-germany factory');
    // A Factory Attack takes air units only: the USA's bombers, not its army.
    expect(options(bomb.state)).toContain('add 8th-air-force');
    expect(options(bomb.state)).not.toContain('add 9th-army');
    expect(options(bomb.state)).not.toContain('launch'); // nothing of its own committed yet
    const r = play(bomb.state, 'add 8th-air-force', 'launch', 'join western-germany', 'add 9th-army', 'add 1st-tactical-air-force', 'launch');
    expect(r.events.map((e) => e.type)).toEqual(['attack-joined', 'attack-joined']);
    const [factory, ground] = [r.state.attacks.find((a) => a.kind === 'factory')!, r.state.attacks.find((a) => !a.kind)!];
    expect(factory.attackers).toEqual(['bomber-command', '8th-air-force']);
    expect(ground.attackers).toEqual(['french-1st-army', '9th-army', '1st-tactical-air-force']);
    expect(factory.power).toBe('AFA');
    expect(ground.power).toBe('AFA');
    // Joined once: no second join, no new attack on the area.
    expect(options(r.state).filter((o) => o.includes('western-germany'))).toEqual([]);
  });

  it('the USSR may not attack Western Germany alongside them, with either kind: only one side\'s powers go ahead', () => {
    const s = until(play(afaAnnounces(bed()), 'done').state, 'USSR', 'announce-attack');
    expect(options(s).filter((o) => o.includes('western-germany'))).toEqual([]);
  });

  it('the two attacks are told apart when resolving them', () => {
    const s = afaAnnounces(bed());
    const r = play(s, 'join western-germany factory', 'add 8th-air-force', 'launch', 'done');
    const at = until(r.state, 'AFA', 'resolve-order');
    expect(options(at)).toEqual(['resolve western-germany factory', 'resolve western-germany']);
  });

  it('6.6: after the joint Ground Attack takes the area, the power with the most Land Factors advancing takes control', () => {
    const s0 = bed();
    const empty = arrange(s0, { units: Object.fromEntries(Object.entries(s0.units).filter(([, u]) => u.at === 'western-germany').map(([id]) => [id, null])) });
    const s = afaAnnounces(empty);
    const r = play(s, 'join western-germany', 'add 9th-army', 'launch', 'done');
    const fought = play(until(r.state, 'AFA', 'resolve-order'), 'resolve western-germany');
    // Both armies advance: the French 1st Army (Size 2, 3 Land Factors) and the US 9th Army (Size 2, 4).
    expect(fought.state.units['french-1st-army']!.at).toBe('western-germany');
    expect(fought.state.units['9th-army']!.at).toBe('western-germany');
    expect(fought.state.control['western-germany']).toBe('USA');
  });

  it('6.6: tied in total Land Factors and in the largest unit, the two powers toss a coin for control', () => {
    const s0 = bed();
    const cleared = Object.fromEntries(Object.entries(s0.units).filter(([, u]) => u.at === 'western-germany').map(([id]) => [id, null]));
    // Both armies at Size 1: 2 Land Factors each, in all and in the largest unit.
    const empty = arrange(s0, { units: { ...cleared, 'french-1st-army': { size: 1 }, '9th-army': { size: 1 } } });
    const s = afaAnnounces(empty);
    const r = play(s, 'join western-germany', 'add 9th-army', 'launch', 'done');
    const fought = play(until(r.state, 'AFA', 'resolve-order'), 'resolve western-germany');
    expect(fought.state.units['french-1st-army']!.at).toBe('western-germany');
    expect(fought.state.units['9th-army']!.at).toBe('western-germany');
    expect(blitz.pending(fought.state)).toMatchObject({ kind: 'chance', prompt: 'control-coin', outcomes: [{ outcome: 'die 1' }, { outcome: 'die 2' }] });
    expect(fought.state.control['western-germany']).toBe('GER');
    // The coin's two faces: the AFA (first in code-point order) or the USA.
    expect(play(fought.state, 'die 1').state.control['western-germany']).toBe('AFA');
    const usa = play(fought.state, 'die 2');
    expect(usa.state.control['western-germany']).toBe('USA');
    expect(usa.events.some((e) => e.type === 'control-coin')).toBe(true);
  });

  it('5.3: the AFA joins an attack the USA announced after it, in a second round of announcements', () => {
    // The AFA pass; the USA announce a Ground Attack on Western Germany; the USSR pass.
    const afaPasses = play(bed(), 'done').state;
    const usa = until(afaPasses, 'USA', 'announce-attack');
    const announced = play(usa, 'attack western-germany', 'add 9th-army', 'launch', 'done').state;
    // The round brought an attack, so the side's powers go round again, the AFA first.
    const again = until(announced, 'AFA', 'announce-attack');
    expect(options(again)).toContain('join western-germany');
    const r = play(again, 'join western-germany', 'add french-1st-army', 'launch');
    expect(r.events.filter((e) => e.type === 'attack-joined').map((e) => (e.data as { by: string }).by)).toEqual(['USA']);
    const ground = r.state.attacks.find((a) => !a.kind && a.target === 'western-germany')!;
    expect(ground.power).toBe('USA');
    expect(ground.attackers).toEqual(['9th-army', 'french-1st-army']);
    // A third round follows the join; once every power passes in a round, the announcements end.
    let s = play(r.state, 'done').state;
    const asked: string[] = [];
    for (let q = blitz.pending(s); q.kind === 'decision' && q.prompt === 'announce-attack'; q = blitz.pending(s)) {
      asked.push(q.power);
      s = play(s, 'done').state;
    }
    expect(asked).toEqual(['USA', 'USSR', 'AFA', 'USA', 'USSR']);
    expect(blitz.pending(s)).toMatchObject({ kind: 'decision', prompt: 'commit-defence' });
  });

  it('while the USA is neutral its units may not join the AFA\'s attack', () => {
    const s = until(play(bed(false), 'bomb western-germany', 'add bomber-command', 'launch', 'done').state, 'USA', 'announce-attack');
    expect(options(s).filter((o) => o.includes('western-germany'))).toEqual([]);
  });
});
