/**
 * Scenario E (Empire of the Rising Sun) on the bundled approximation: Port Attacks, China entry and
 * China's income, off-map supply, the Harbin frontier, the extra Allied Resources, research, the
 * Japan-S.China Convoy and the Pacific objectives. Figures are computed from the pack, not copied.
 */
import { describe, expect, it } from 'vitest';
import type { GameEvent, Pending } from '@salient/engine';
import { blitz } from '../../src/index.ts';
import { packOf, scenarioDef } from '../../src/rules/pack-index.ts';
import { turnIncome } from '../../src/rules/income.ts';
import { inSupply } from '../../src/rules/supply.ts';
import { convoyDestroyed } from '../../src/rules/sea-combat.ts';
import { scoreObjectives } from '../../src/rules/victory-points.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import { arrange, combatLog, options, pack, passUntil, play, prompt, reach, until } from '../helpers.ts';

const startE = (): BlitzState => blitz.setup('E', pack);
const p = packOf(startE().pack);
const sc = scenarioDef(p, 'E');
const onTurn = (turn: number, s0: BlitzState = startE()): BlitzState => ({ ...structuredClone(s0), turn });

/** The USSR's die against Harbin is the next question. */
const frontierDie = (q: Pending<string>): boolean => q.kind === 'chance' && q.prompt === 'frontier-die';

const objectiveEvents = (ev: GameEvent[], id: string) => ev.filter((e) => (e.data as { objective?: string } | undefined)?.objective === id);

describe('E: Empire of the Rising Sun set-up', () => {
  it('starts on Turn 4, Japan against the Western Allies, each with 2 saved Oil', () => {
    const s = startE();
    expect(s.turn).toBe(4);
    expect(s.oil).toEqual({ JAP: 2, WA: 2 });
    expect(blitz.scenarios(pack).find((x) => x.id === 'E')!.sides.map((x) => x.powers)).toEqual([['JAP'], ['WA']]);
    expect(s.units['southern-army']!.at).toBe('peking');
  });
});

describe('E.2/5.3/6.3 Port Attacks', () => {
  /** At the Western Allies' announce step, a carrier put at sea off Formosa and a Japanese battleship in its port. */
  const bed = (extra: Parameters<typeof arrange>[1]['units'] = {}) =>
    arrange(reach(startE(), 'WA', 'announce-attack'), {
      units: { '8th-fleet': { at: 'sea:east-china-sea', size: 2 }, '2nd-fleet': { at: 'formosa', size: 2, power: 'JAP' }, 'naval-air': null, ...extra },
    });

  it('a carrier at sea on the port\'s sea strikes the ships in port with half its Naval Factors; ships in port never fire (5.3, 6.3)', () => {
    let s = bed();
    expect(options(s)).toContain('raid formosa');
    s = play(s, 'raid formosa', 'add 8th-fleet', 'launch', 'done').state;
    s = until(s, 'WA', 'resolve-order');
    const r = play(s, 'resolve formosa');
    // No air unit or AA defends, so there is no Air Round.
    expect(prompt(r.state)).toBe('chance:naval-round-attacker-die');
    const log = combatLog(r).find((l) => l.round === 'naval')!;
    const cv = p.unit.get('8th-fleet')!.sizes['2']!;
    const bb = p.unit.get('2nd-fleet')!.sizes['2']!;
    const tri = (t?: { white: number; red: number }) => (t ? t.white - t.red : 0);
    expect(log.attRaw).toBe(cv.naval! / 2 + tri(bb.triangles?.naval));
    expect(log.defFactors).toBe(0);
    // One die, the attacker's; whatever it gives falls on the ships in port.
    const done = play(r.state, 'die 6');
    expect(blitz.pending(done.state)).not.toMatchObject({ kind: 'chance', prompt: 'naval-round-defender-die' });
    const after = combatLog(done).find((l) => l.round === 'naval')!;
    expect(after.attResult).toBeDefined();
    expect(after.defResult).toBe('-');
    expect(done.state.units['8th-fleet']!.size).toBe(2); // the carrier takes nothing
    expect(done.state.control.formosa).toBe('JAP'); // a Port Attack never takes the area
  });

  it('SUBs in port are immune: a port with only SUBs offers no Port Attack; an enemy BB at sea keeps the carrier out', () => {
    const subs = bed({ '2nd-fleet': null, '6th-fleet': { at: 'formosa', size: 2, power: 'JAP' } });
    expect(options(subs)).not.toContain('raid formosa');
    const guarded = bed({ 'combined-fleet': { at: 'sea:east-china-sea', size: 4 } });
    expect(prompt(guarded)).toBe('WA:announce-attack');
    expect(options(guarded)).not.toContain('raid formosa');
  });
});

describe('E.1/5.2 China entry', () => {
  it('a non-Chinese Allied land unit may not attack into China until the Allies hold two of Formosa, Manila and South-East Asia; Chinese units may', () => {
    const base = arrange(startE(), { units: { 'indian-army': { at: 'chungking', size: 2 } } });
    const s = until(base, 'WA', 'announce-attack');
    const r = play(s, 'attack peking');
    expect(options(r.state)).toContain('add chinese-warlords');
    expect(options(r.state)).not.toContain('add indian-army');
    // Manila is already Allied; with South-East Asia too the way is open.
    const open = until(arrange(base, { control: { 'south-east-asia': 'WA' }, units: { '25th-army': null, 'south-east-asia-army': null, zeroes: null } }), 'WA', 'announce-attack');
    expect(options(play(open, 'attack peking').state)).toContain('add indian-army');
  });
});

describe('E.4/7.6 China\'s income and off-map supply', () => {
  it('the Western Allies\' areas give 4 Oil and 7 Resources, of which China\'s Resource serves Chinese units only', () => {
    const wa = turnIncome(p, structuredClone(startE()), []).WA!;
    expect(wa.oil).toBe(4);
    const china = (p.countryLands.get('china') ?? []).filter((l) => sc.lands.includes(l) && startE().control[l] === 'WA');
    const chinaRes = china.reduce((t, l) => t + p.land.get(l)!.resources + p.land.get(l)!.oil, 0);
    expect(wa.earmark.china).toBe(chinaRes);
    expect(wa.res + wa.earmark.china!).toBe(7);
    // Without a Chinese land unit in Chungking its Resource is not usable at all.
    const empty = turnIncome(p, arrange(startE(), { units: { 'chinese-warlords': { at: 'sian' } } }), []).WA!;
    expect(empty.earmark.china ?? 0).toBe(chinaRes - p.land.get('chungking')!.resources);
  });

  it('the Bay of Bengal LL turns one USA Resource into Chinese income; Chinese units are built only from that', () => {
    const s = arrange(startE(), { units: { 'bay-of-bengal-ll': { at: 'sea:bay-of-bengal' } } });
    const ev: GameEvent[] = [];
    const wa = turnIncome(p, structuredClone(s), ev).WA!;
    const plain = turnIncome(p, structuredClone(startE()), []).WA!;
    expect(wa.res).toBe(plain.res - 1);
    expect(wa.earmark.china).toBe((plain.earmark.china ?? 0) + 1);
    expect(ev.filter((e) => e.type === 'lend-lease')).toHaveLength(1);
  });

  it('Western Allied supply may start off the map in the USA or Great Britain: a unit in India traces back through seas out of play', () => {
    const s = arrange(startE(), { units: { 'indian-army': { at: 'hyderabad', size: 2 } } });
    expect(inSupply(p, s, 'indian-army')).toBe(true);
    // Japanese ships alone in every sea around India cut it off... unless the line runs off the map.
    const ring = arrange(s, { units: { '2nd-fleet': { at: 'sea:bay-of-bengal', size: 2, power: 'JAP' } } });
    expect(inSupply(p, ring, 'indian-army')).toBe(true);
  });
});

describe('E: the Harbin frontier', () => {
  it('Japan loses Harbin at once if it keeps less than Size 2 of land units there', () => {
    const s = arrange(startE(), { units: { 'kwantung-army': null } });
    expect(s.control.harbin).toBe('neutral');
    expect(s.frontierHeld).toEqual(['harbin']);
    expect(s.units['17th-area-gar']!.at).not.toBe('harbin');
  });

  it('from Turn 11 the USSR attacks once a turn: a die above the defenders\' Size takes it, Japan loses 2 (its pick first) and retreats', () => {
    // Before Turn 11 there is no attack; on Turn 11 it comes at the start of the Allied activities.
    const toDie = (s0: BlitzState): BlitzState | null => {
      const x = passUntil(s0, (t, q) => frontierDie(q) || t.impulse >= 3, { limit: 3000 });
      return x && frontierDie(blitz.pending(x)) ? x : null;
    };
    expect(toDie(onTurn(10))).toBeNull();
    const q = toDie(onTurn(11))!;
    expect(q.impulse).toBe(2);
    const size = Object.values(q.units).filter((u) => u.at === 'harbin' && u.power === 'JAP' && p.unit.get(u.def)!.type !== 'AIR').reduce((a, u) => a + u.size, 0);
    expect(size).toBeGreaterThanOrEqual(sc.frontier!.garrison);
    expect(size).toBeLessThan(6);
    const fail = play(q, `die ${size}`);
    expect(fail.state.control.harbin).toBe('JAP');
    let win = play(q, 'die 6');
    expect(win.state.control.harbin).toBe('neutral');
    expect(prompt(win.state)).toBe('JAP:assign-damage');
    win = play(win.state, options(win.state)[0]!);
    if (prompt(win.state) === 'WA:assign-damage') win = play(win.state, options(win.state)[0]!);
    // The survivor's owner picks where it falls back when it has a choice.
    if (prompt(win.state) === 'JAP:retreat-to') win = play(win.state, options(win.state)[0]!);
    const after = win.state;
    const lost = ['kwantung-army', '17th-area-gar'].reduce((t, u) => t + (q.units[u]!.size - (after.units[u]!.at === 'pool' ? 0 : after.units[u]!.size)), 0);
    expect(lost).toBe(sc.frontier!.losses);
    expect(Object.values(after.units).some((u) => u.at === 'harbin')).toBe(false);
    expect(after.frontierHeld).toEqual(['harbin']);
    // Japan may not attack what the USSR holds: it is out of play.
    expect(after.control.harbin).toBe('neutral');
  });
});

describe('E: the Harbin worked example', () => {
  it('Turn 11: a 3 against Size 3 fails; Turn 12: a 5 takes Harbin, Japan loses the 17th Area GAR and a step of the Kwantung Army, which Japan retreats to Port Arthur', () => {
    const toDie = (s0: BlitzState): BlitzState => {
      const x = passUntil(s0, (_, q) => frontierDie(q), { limit: 3000 });
      if (!x) throw new Error('no frontier die');
      return x;
    };
    const t11 = toDie(onTurn(11));
    expect(['kwantung-army', '17th-area-gar'].map((u) => [t11.units[u]!.at, t11.units[u]!.size])).toEqual([
      ['harbin', 2],
      ['harbin', 1],
    ]);
    expect(play(t11, 'die 3').state.control.harbin).toBe('JAP');
    let r = play(toDie(onTurn(12)), 'die 5');
    expect(prompt(r.state)).toBe('JAP:assign-damage');
    r = play(r.state, 'hit 17th-area-gar'); // Japan's pick; the Kwantung Army, the only one left, takes the second
    expect(r.state.units['17th-area-gar']!.at).not.toBe('harbin');
    expect(r.state.units['kwantung-army']!.size).toBe(1);
    expect(prompt(r.state)).toBe('JAP:retreat-to');
    expect(options(r.state)).toContain('to port-arthur');
    r = play(r.state, 'to port-arthur');
    expect(r.state.units['kwantung-army']!.at).toBe('port-arthur');
    expect(r.state.control.harbin).toBe('neutral');
  });
});

describe('E: extra Allied Resources', () => {
  it('on Turns 5-8 the Western Allies may take 3 extra Resources for a VP (Japan gains it if they have none); from Turn 9, 2 more a turn, cumulative', () => {
    let s = reach(onTurn(5), 'WA', 'build-pick');
    expect(options(s)).toContain('extra resources');
    const before = s.res.WA!;
    s = play(s, 'extra resources').state;
    expect(s.res.WA).toBe(before + 3);
    expect(s.vp!.JAP).toBe(1); // the WA had no VP to lose
    expect(options(s)).not.toContain('extra resources');
    const t4 = reach(onTurn(4), 'WA', 'build-pick');
    expect(options(t4)).not.toContain('extra resources');
    // The income event of the turn-end shows the growing extra: 2 on Turn 9, 4 on Turn 10.
    const extraOn = (turn: number): number | undefined => {
      let income: GameEvent | undefined;
      passUntil(onTurn(turn), () => income !== undefined, { onStep: (_, ev) => (income ??= ev.find((e) => e.type === 'income')) });
      return income && (income.data as Record<string, { lines: Record<string, number> }>).WA!.lines.extra;
    };
    expect(extraOn(8)).toBeUndefined();
    expect(extraOn(9)).toBe(2);
    expect(extraOn(10)).toBe(4);
  });
});

describe('E.5/7.8 research', () => {
  it('a Resource buys a roll: 1-4 draws a unit of the current Group into the Force Pool, secretly; 5-6 fails', () => {
    const s = reach(startE(), 'JAP', 'build-pick');
    expect(options(s)).toContain('research');
    const r = play(s, 'research');
    expect(prompt(r.state)).toBe('chance:research-die');
    const fail = play(r.state, 'die 5');
    expect(fail.state.hidden.JAP!.some((h) => h.at === 'research')).toBe(true);
    expect(Object.keys(fail.state.pool).filter((u) => !(u in s.pool))).toEqual([]);
    const ok = play(r.state, 'die 2');
    expect(prompt(ok.state)).toBe('chance:research-draw');
    const group = sc.research!.JAP![0]!.map((g) => g.unit);
    const drawn = play(ok.state, 'die 1');
    const added = Object.keys(drawn.state.pool).filter((u) => !(u in s.pool));
    expect(added).toHaveLength(1);
    expect(group).toContain(added[0]);
    // The Western Allies do not see it until the builds are revealed.
    expect(blitz.observe(drawn.state, 'WA').pool[added[0]!]).toBeUndefined();
    expect(blitz.observe(drawn.state, 'JAP').pool[added[0]!]).toBeDefined();
  });
});

describe('E.3/6.3/3.5 the Japan-S.China Convoy', () => {
  it('counts only while Japan holds an Oil or Resource area on the South China Sea', () => {
    const c = p.files.map.convoys!.find((x) => x.id === 'japan-south-china-convoy')!;
    const s = startE();
    const trade = [...(p.coastOf.get(c.sea) ?? [])].filter((l) => l in s.control && p.land.get(l)!.oil + p.land.get(l)!.resources > 0);
    expect(trade.length).toBeGreaterThan(0);
    const jap = structuredClone(s);
    for (const l of trade) jap.control[l] = 'WA';
    expect(convoyDestroyed(p, jap, c)).toBe(true);
    jap.control[trade[0]!] = 'JAP';
    expect(convoyDestroyed(p, jap, c)).toBe(false);
  });
});

describe('E: Pacific objectives (8)', () => {
  it('Pacific Domination scores while no Japanese unit is at sea in its seas; Tenno-Zan when Allied air and naval Size there is large', () => {
    const s = structuredClone(startE());
    const ev: GameEvent[] = [];
    scoreObjectives(p, s, ev);
    expect(objectiveEvents(ev, 'wa-pacific-domination')).toHaveLength(1);
    expect(objectiveEvents(ev, 'jap-tenno-zan')).toHaveLength(0);
    const busy = arrange(startE(), { units: { 'combined-fleet': { at: 'sea:micronesia', size: 4 }, 'pacific-fleet': { at: 'sea:leyte-gulf', size: 4 }, '8th-fleet': { at: 'sea:bismarck-sea', size: 2 }, 'british-pacific-fleet': { at: 'sea:east-china-sea', size: 2, power: 'WA' }, 'far-east-fleet': { at: 'sea:south-china-sea', size: 2, power: 'WA' } } });
    const ev2: GameEvent[] = [];
    scoreObjectives(p, structuredClone(busy), ev2);
    expect(objectiveEvents(ev2, 'wa-pacific-domination')).toHaveLength(0);
    const allied = ['pacific-fleet', '8th-fleet', 'british-pacific-fleet', 'far-east-fleet'].reduce((t, u) => t + busy.units[u]!.size, 0);
    const need = sc.victory!.objectives.find((o) => o.id === 'jap-tenno-zan')!.atLeast!;
    expect(objectiveEvents(ev2, 'jap-tenno-zan')).toHaveLength(allied >= need ? 1 : 0);
  });
});
