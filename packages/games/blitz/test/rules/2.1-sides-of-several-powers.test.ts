/**
 * 2.1/2.2: a side of several powers does each activity for all its powers before the next one,
 * each power is its own seat, and every power of a side announces its Blitz before any Blitz
 * activity. Tested on a split test bed (Scenario B with the AFA and the USA apart).
 */
import { describe, expect, it } from 'vitest';
import { checkConformance } from '@salient/engine/testing';
import { blitz } from '../../src/index.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import { arrange, options, passUntil, play, prompt, until } from '../helpers.ts';
import { splitTestPack } from '../support/split-test-pack.ts';

const pack = splitTestPack();
const start = (): BlitzState => blitz.setup('B', pack);

/** Pass through the game, noting (impulse, step, power) each time the asking power or step changes. */
function trace(s0: BlitzState, impulses: number): string[] {
  const seen: string[] = [];
  passUntil(s0, (s) => s.impulse > impulses, {
    passive: ['done', 'stop', 'launch'],
    limit: 2000,
    onStep: (q, _, s) => {
      if (q.kind !== 'decision') return;
      const key = `${s.impulse} ${s.step} ${q.power}`;
      if (seen[seen.length - 1] !== key) seen.push(key);
    },
  });
  return seen;
}

describe('2.1 sides of several powers', () => {
  it('each step of the Allied activities is done by the AFA, then the USA, before the next step', () => {
    const seq = trace(start(), 2).filter((x) => x.startsWith('2 '));
    expect(seq).toEqual(['2 to-sea AFA', '2 to-sea USA', '2 rebase AFA', '2 rebase USA', '2 land-move AFA', '2 land-move USA', '2 announce AFA']);
  });

  it('each power is asked about its own units only', () => {
    const s = until(start(), 'USA', 'move-pick');
    const units = options(s).filter((o) => o.startsWith('move ')).map((o) => o.slice(5));
    expect(units.length).toBeGreaterThan(0);
    for (const u of units) expect(s.units[u]!.power).toBe('USA');
    const afa = until(start(), 'AFA', 'move-pick');
    for (const o of options(afa).filter((x) => x.startsWith('move '))) expect(afa.units[o.slice(5)]!.power).toBe('AFA');
  });

  it('2.2: a Free Blitz power keeps its own Size 4 while its ally does a Total Blitz', () => {
    const seq = trace(start(), 4).filter((x) => x.startsWith('4 '));
    // AFA (Total) and USA (Free) share the sea, rebase and land steps; only the AFA announce attacks.
    expect(seq).toContain('4 land-move USA');
    expect(seq.filter((x) => x.endsWith('USA')).every((x) => !x.includes('announce'))).toBe(true);
    let s = until(until(start(), 'GER', 'move-pick'), 'USA', 'move-pick');
    while (s.impulse < 4) s = until(blitz.apply(s, options(s).includes('done') ? 'done' : options(s)[0]!).state, 'USA', 'move-pick');
    expect(s.mode).toBe('free');
    expect(s.freeLeft).toBe(4);
  });

  it('5.3: all powers announce before the defender commits; each resolves its own attacks; one power per target', () => {
    let s = arrange(start(), {
      units: {
        '2nd-army': { at: 'vichy-france' },
        'us-1st-army': { at: 'belgium-netherlands' },
        '15th-army': null,
        '19th-army': null,
      },
      control: { 'vichy-france': 'AFA', 'belgium-netherlands': 'USA' },
    });
    s = until(s, 'AFA', 'announce-attack');
    expect(options(s)).toContain('attack paris');
    let r = play(s, 'attack paris', 'add 2nd-army', 'launch', 'done');
    // The USA's turn of the step: Paris is taken by the AFA's attack (one power per target).
    expect(prompt(r.state)).toBe('USA:announce-attack');
    expect(options(r.state)).not.toContain('attack paris');
    expect(options(r.state)).toContain('attack western-germany');
    r = play(r.state, 'attack western-germany', 'add us-1st-army', 'launch', 'done');
    // Then Germany commits support against both, then the AFA resolve theirs, then the USA.
    const after = until(r.state, 'AFA', 'resolve-order');
    expect(options(after)).toEqual(['resolve paris']);
    expect(after.attacks.map((a) => [a.target, a.power])).toEqual([
      ['paris', 'AFA'],
      ['western-germany', 'USA'],
    ]);
    let t = play(after, 'resolve paris').state;
    for (let i = 0; i < 200 && !(blitz.pending(t).kind === 'decision' && prompt(t) === 'USA:resolve-order'); i++) {
      const p = blitz.pending(t);
      if (p.kind === 'chance') t = blitz.apply(t, 'die 3').state;
      else if (p.kind === 'decision') {
        // Picks inside the AFA's combat belong to the AFA and Germany, never to the USA.
        expect(['AFA', 'GER']).toContain(p.power);
        t = blitz.apply(t, p.options[0]!).state;
      } else break;
    }
    expect(prompt(t)).toBe('USA:resolve-order');
    expect(options(t)).toEqual(['resolve western-germany']);
  });

  it('5.3: against a single attacking power, every power of the defending side commits its own support in turn', () => {
    // The AFA's fighters in Belgium-Netherlands with the US army; the USA's bombers in London, in range too.
    let s = arrange(start(), {
      units: { 'us-1st-army': { at: 'belgium-netherlands' }, 'royal-air-force': { at: 'belgium-netherlands' }, '15th-army': { at: 'western-germany' } },
      control: { 'belgium-netherlands': 'USA' },
    });
    s = until(s, 'GER', 'announce-attack');
    const attack = options(play(s, 'attack belgium-netherlands').state).find((o) => o.startsWith('add '))!;
    let r = play(s, 'attack belgium-netherlands', attack, 'launch');
    if (prompt(r.state) === 'GER:announce-attack') r = play(r.state, 'done');
    expect(prompt(r.state)).toBe('AFA:commit-defence');
    const afa = options(r.state).filter((o) => o !== 'done');
    expect(afa.length).toBeGreaterThan(0);
    for (const o of afa) expect(r.state.units[o.split(' ').pop()!]!.power).toBe('AFA');
    const usa = play(r.state, 'done').state;
    expect(prompt(usa)).toBe('USA:commit-defence');
    const mine = options(usa).filter((o) => o !== 'done');
    expect(mine.length).toBeGreaterThan(0);
    for (const o of mine) expect(usa.units[o.split(' ').pop()!]!.power).toBe('USA');
    const committed = play(usa, mine[0]!, 'done').state;
    expect(committed.attacks[0]!.defenders).toEqual([mine[0]!.split(' ').pop()]);
    expect(prompt(committed)).toBe('GER:resolve-order');
  });

  it('random games on the split test bed pass the conformance kit', () => {
    const r = checkConformance(blitz, { pack, scenario: 'B', seeds: Array.from({ length: 30 }, (_, i) => i + 1), deepEvery: 2 });
    expect(r.playouts).toHaveLength(30);
    const seats = new Set<string>();
    for (const pl of r.playouts) expect(pl.winners.length).toBe(1);
    // Each of the three powers was asked to decide in these games.
    let s = start();
    for (let i = 0; i < 3000 && blitz.pending(s).kind !== 'terminal'; i++) {
      const p = blitz.pending(s);
      if (p.kind === 'decision') seats.add(p.power);
      s = blitz.apply(s, p.kind === 'chance' ? 'die 4' : (p as { options: readonly string[] }).options[0]!).state;
    }
    expect([...seats].sort()).toEqual(['AFA', 'GER', 'USA']);
  }, 60_000);
});
