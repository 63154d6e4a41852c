/**
 * The full game's war matrix (3.1, 3.2, 4.2, 4.4, 5.1, 5.2, 7.2) on a test bed: Scenario F with its wars
 * listed pair by pair. Neutral major powers act within their home countries; areas and units of a power
 * one is not at war with are neutral to it; declarations make wars pair by pair; a minor declared on is at
 * war with its aggressor alone.
 */
import { describe, expect, it } from 'vitest';
import type { Pending } from '@salient/engine';
import { blitz } from '../../src/index.ts';
import { landDef, packOf } from '../../src/rules/pack-index.ts';
import { seasWithCombat } from '../../src/rules/sea-combat.ts';
import { atWar, barredFromAlly, hostileLand } from '../../src/rules/wars.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import { arrange, options, pack as bundled, passUntil, play, reach, until } from '../helpers.ts';
import { warTestPack } from '../support/war-test-pack.ts';

const pack = warTestPack();
const start = (): BlitzState => blitz.setup('F', pack);
const p = packOf(start().pack);
const countryOf = (land: string) => landDef(p, land).country;

describe('3.1 the wars at the start, pair by pair', () => {
  it('Germany and the AFA are at war; the USA and USSR are at war with no one', () => {
    const s = start();
    expect(s.wars).toEqual(['AFA~GER']);
    expect(atWar(p, s, 'GER', 'AFA')).toBe(true);
    expect(atWar(p, s, 'GER', 'USSR')).toBe(false);
    expect(atWar(p, s, 'GER', 'USA')).toBe(false);
    expect(s.neutral).toEqual(['USA', 'USSR']);
  });

  it('Scenario F itself keeps no matrix: the sides decide', () => {
    const plain = blitz.setup('F', bundled);
    expect(plain.wars).toBeUndefined();
    expect(atWar(packOf(plain.pack), plain, 'GER', 'AFA')).toBe(true);
    expect(atWar(packOf(plain.pack), plain, 'GER', 'USSR')).toBe(false); // neutral
  });
});

describe('5.1/5.2/4.2 neutral major powers act, within their home countries', () => {
  it('the USSR and the USA take part in the Allied activities', () => {
    const s = reach(start(), 'AFA', 'sea-pick');
    expect(s.impulse).toBe(2);
    const askers = new Set<string>();
    const prompts: Pending<string>[] = [];
    passUntil(s, (t) => t.impulse !== 2, { passive: ['done', 'stop', 'launch'], limit: 800, onStep: (q) => { if (q.kind === 'decision') { askers.add(q.power); prompts.push(q); } } });
    expect([...askers].sort()).toEqual(['AFA', 'USA', 'USSR']);
    // 4.2: their air, BB, CV and SUB never go to sea while neutral.
    const sailing = prompts.filter((q) => q.kind === 'decision' && (q.power === 'USA' || q.power === 'USSR') && q.prompt === 'sea-pick');
    expect(sailing).toEqual([]);
  });

  it('a neutral USSR army moves only within the USSR; its air units rebase only within it', () => {
    let s = reach(start(), 'USSR', 'move-pick');
    expect(options(s)).toContain('move western-front');
    s = play(s, 'move western-front').state;
    const dests = options(s).filter((o) => o.startsWith('to ')).map((o) => o.slice(3));
    expect(dests.length).toBeGreaterThan(0);
    for (const d of dests) expect(countryOf(d)).toBe('ussr');
    let r = reach(start(), 'USSR', 'rebase-pick');
    expect(options(r)).toContain('rebase lra');
    r = play(r, 'rebase lra').state;
    const bases = options(r).map((o) => o.slice(3));
    expect(bases.length).toBeGreaterThan(0);
    for (const b of bases) expect(countryOf(b)).toBe('ussr');
  });
});

describe('3.2 declarations make wars pair by pair', () => {
  const poised = () => arrange({ ...structuredClone(start()), turn: 5 }, { units: { 'army-group-center': { at: 'poland', size: 2 } }, control: { poland: 'GER' } });

  it('Soviet areas are neutral to Germany until it declares war; then they are targets and the USSR is in the war', () => {
    const before = until(poised(), 'GER', 'announce-attack');
    expect(options(before).some((o) => o === 'attack byelorussia' || o === 'attack ukraine')).toBe(false);
    expect(hostileLand(p, before, ['GER'], 'byelorussia')).toBe(false);
    const s = reach(poised(), 'GER', 'move-pick');
    expect(options(s)).toContain('declare USSR');
    const r = play(s, 'declare USSR');
    expect(r.state.wars).toEqual(['AFA~GER', 'GER~USSR']);
    expect(r.state.neutral).toEqual(['USA']);
    expect(atWar(p, r.state, 'GER', 'USA')).toBe(false);
    const after = until(r.state, 'GER', 'announce-attack');
    expect(options(after)).toContain('attack byelorussia');
  });

  it('a neutral USSR may declare on a minor outside its pact; the minor is at war with the USSR alone, and its German aligner may not enter it', () => {
    const s = reach(start(), 'USSR', 'move-pick');
    expect(options(s)).toContain('declare turkey');
    for (const barred of ['declare finland', 'declare central-europe', 'declare sweden', 'declare GER']) expect(options(s)).not.toContain(barred);
    const r = play(s, 'declare turkey');
    expect(r.state.wars).toEqual(['AFA~GER', 'USSR~turkey']);
    const turkish = Object.keys(r.state.control).filter((l) => countryOf(l) === 'turkey');
    expect(turkish.length).toBeGreaterThan(0);
    for (const l of turkish) {
      expect(r.state.control[l]).toBe('GER');
      expect(hostileLand(p, r.state, ['USSR'], l)).toBe(true); // the USSR may attack Turkey...
      expect(barredFromAlly(p, r.state, { def: 'army-group-center', power: 'GER', size: 2, at: 'poland' }, l)).toBe(true); // ...Germany may not go in
    }
    expect(atWar(p, r.state, 'GER', 'USSR')).toBe(false);
    expect(hostileLand(p, r.state, ['USSR'], 'berlin')).toBe(false);
  });

  it('the USA may declare nothing while neutral', () => {
    const s = reach(start(), 'USA', 'move-pick');
    expect(options(s).filter((o) => o.startsWith('declare '))).toEqual([]);
  });
});

describe('4.4 sea combat only between units at war', () => {
  it('German and Soviet fleets in one sea do not fight while at peace, and do once at war', () => {
    const s0 = until(start(), 'GER', 'move-pick');
    const s = arrange(s0, { units: { 'baltic-sea-fleet': { at: 'sea:baltic-sea' }, 'u-boat-i': { at: 'sea:baltic-sea' } } });
    expect(seasWithCombat(p, s)).not.toContain('baltic-sea');
    const w = structuredClone(s);
    w.wars = [...w.wars!, 'GER~USSR'].sort();
    expect(seasWithCombat(p, w)).toContain('baltic-sea');
  });
});
