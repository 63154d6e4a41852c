/**
 * S3 3.4 Initial deployment as the players' choice (the Allies first), within each sector of 3.41-3.43,
 * under the 6.1 stacking limits, with 3.4's Level 2 entrenchment next to the start line. On the
 * synthetic front map.
 */
import { describe, expect, it } from 'vitest';
import { canHold, deployOptions } from '../../src/rules/deploy.ts';
import { boardOf } from '../../src/rules/board.ts';
import { stackLegal } from '../../src/rules/stacking.ts';
import type { EaState } from '../../src/rules/state.ts';
import { game, opts, pack } from '../support/play.ts';

/** Play the set-up with a seeded random choice each time; returns every state seen. */
function randomDeployment(seed: number): EaState[] {
  let s = game.setup('1918', pack);
  let x = seed;
  const seen = [s];
  while (s.phase === 'setup') {
    const o = opts(s);
    expect(o.length, `seed ${seed}: a unit with nowhere to go`).toBeGreaterThan(0);
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    s = game.apply(s, o[x % o.length]!).state;
    seen.push(s);
  }
  return seen;
}

describe('S3 3.4 deployment by the players', () => {
  it('starts with the Allies placing their first sector unit, the sector units off the map, the fixed placements on it', () => {
    const s = game.setup('1918', pack);
    const b = boardOf(s.key);
    expect(s.phase).toBe('setup');
    const p = game.pending(s);
    expect(p).toMatchObject({ kind: 'decision', power: 'AL', prompt: 'deploy-unit' });
    const a = s.ask as { k: 'deploy'; u: number };
    const sector = b.sectors[b.units[a.u]!.sector]!;
    expect(sector.side).toBe(1);
    expect(opts(s)).toEqual(sector.hexes.map((h) => `deploy ${b.map.id(h)}`));
    for (let u = 0; u < s.hex.length; u++) {
      if (b.units[u]!.sector >= 0) expect(s.hex[u]).toBe(-4);
      else if (b.units[u]!.arrives === 0) expect(s.hex[u], `unit ${u}`).toBeGreaterThanOrEqual(0);
    }
    expect(game.position(s)).toMatchObject({ turn: 0, impulse: 1, phase: 'al-setup' });
  });

  it('lets every random deployment finish: each unit in its sector, every hex within 6.1, L2 next to the start line, then March 1918 opens in Mud (3.66)', () => {
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const seen = randomDeployment(seed);
      const s = seen[seen.length - 1]!;
      const b = boardOf(s.key);
      // The Allies deploy every unit before the first German one (3.4).
      const firstCp = seen.findIndex((x) => x.phase === 'setup' && x.seg === 0);
      expect(seen.slice(firstCp).every((x) => x.phase !== 'setup' || x.seg === 0)).toBe(true);
      expect(s.wx).toBe('mud');
      expect(game.pending(s)).toMatchObject({ kind: 'decision', power: 'CP', prompt: 'move-unit' });
      const byHex = new Map<number, number[]>();
      for (let u = 0; u < s.hex.length; u++) {
        const d = b.units[u]!;
        if (d.sector >= 0) {
          expect(b.sectors[d.sector]!.hexes).toContain(s.hex[u]);
          expect(s.ent[u], `3.4: unit ${u} in ${b.map.id(s.hex[u]!)}`).toBe(b.startEnt[s.hex[u]!]);
        }
        if (s.hex[u]! >= 0 && d.prof.type !== 'air') byHex.set(s.hex[u]!, [...(byHex.get(s.hex[u]!) ?? []), u]);
      }
      for (const [h, us] of byHex) expect(stackLegal(us.map((u) => b.units[u]!.prof)), `6.1 in ${b.map.id(h)}`).toBe(true);
      // The front-line sector hexes face the enemy: their units start entrenched at Level 2; a hex with no enemy neighbour does not.
      for (const sec of b.sectors)
        for (const h of sec.hexes) {
          const facing = [0, 1, 2, 3, 4, 5].some((d) => b.map.neighbours[h * 6 + d]! >= 0 && b.startCtl[b.map.neighbours[h * 6 + d]!] === 1 - sec.side);
          expect(b.startEnt[h], b.map.id(h)).toBe(facing && !b.forts.some((f) => f.hex === h) ? 2 : 0);
        }
    }
  });

  it('gives different openings for different choices, and the same one for the same choices', () => {
    const a = randomDeployment(11).at(-1)!;
    const a2 = randomDeployment(11).at(-1)!;
    const c = randomDeployment(12).at(-1)!;
    expect(a2.hex).toEqual(a.hex);
    expect(c.hex).not.toEqual(a.hex);
  });

  it('3.45: the US divisions deploy within one hex of 3152, in rows 25 and south, at least three hexes from the start line', () => {
    let s = game.setup('1918', pack);
    const b = boardOf(s.key);
    const us = b.units.flatMap((d, u) => (d.nation === 'US' && d.arrives === 0 ? [u] : []));
    expect(us.length).toBe(4);
    const enemy = b.sectors.filter((sec, i) => sec.side === 0 && i < b.scen.sectors.length).flatMap((sec) => sec.hexes);
    const seen = new Set<number>();
    while (s.phase === 'setup') {
      const a = s.ask as { k: 'deploy'; u: number };
      if (us.includes(a.u)) {
        for (const o of opts(s)) {
          const h = b.map.hex(o.slice(7));
          seen.add(h);
          expect(b.map.grid.distance(h, b.map.hex('3152'))).toBeLessThanOrEqual(1);
          expect(b.map.grid.row(h)).toBeGreaterThanOrEqual(25);
          expect(Math.min(...enemy.map((e) => b.map.grid.distance(h, e)))).toBeGreaterThanOrEqual(3);
        }
      }
      s = game.apply(s, opts(s)[0]!).state;
    }
    expect(seen.size).toBeGreaterThan(1); // a real choice
    for (const u of us) expect(seen.has(s.hex[u]!)).toBe(true);
  });

  it("keeps the pack's fixed deal as the option deploy=deal", () => {
    const s = game.setup('1918', pack, { deploy: 'deal' });
    const b = boardOf(s.key);
    expect(s.phase).toBe('move');
    for (let u = 0; u < s.hex.length; u++) if (b.units[u]!.arrives === 0) expect(s.hex[u]).toBe(b.units[u]!.start);
    expect(() => game.setup('1918', pack, { deploy: 'free' })).toThrow(/'deploy' is "choose".*or "deal"/);
  });
});

describe('6.1 room left in a sector (no dead end)', () => {
  // Per hex: Inf/Cav, FA, Siege, Tank.
  it('a hex with two Field Artillery takes only two Inf/Cav; a third Inf/Cav costs a hex one FA place', () => {
    expect(canHold([0, 2, 0, 0, 0, 0, 0, 0], [5, 0, 0, 0])).toBe(true);
    expect(canHold([0, 2, 0, 0, 0, 0, 0, 0], [6, 0, 0, 0])).toBe(false);
    expect(canHold([0, 0, 0, 0, 0, 0, 0, 0], [6, 2, 0, 0])).toBe(true); // 3 Inf + 1 FA in each
    expect(canHold([0, 0, 0, 0, 0, 0, 0, 0], [6, 3, 0, 0])).toBe(false);
    expect(canHold([0, 0, 0, 0, 0, 0, 0, 0], [5, 3, 0, 0])).toBe(true); // 3+1 and 2+2
  });
  it("6.1's examples fit one hex: three Inf, one FA, a Siege and a Tank; or two Inf/Cav, two FA, a Siege and a Tank", () => {
    expect(canHold([0, 0, 0, 0], [3, 1, 1, 1])).toBe(true);
    expect(canHold([0, 0, 0, 0], [2, 2, 1, 1])).toBe(true);
    expect(canHold([0, 0, 0, 0], [3, 2, 0, 0])).toBe(false);
    expect(canHold([0, 0, 1, 0], [0, 0, 1, 0])).toBe(false);
    expect(canHold([0, 0, 0, 1], [0, 0, 0, 1])).toBe(false);
  });
  it("does not offer a hex that would leave Sector B's fifteen Inf/Cav without room (5 hexes, 3 each)", () => {
    let s = game.setup('1918', pack);
    const b = boardOf(s.key);
    const secB = b.sectors.findIndex((sec) => sec.side === 0 && sec.hexes.length === 5 && b.units.filter((u) => u.sector === b.sectors.indexOf(sec) && u.prof.type === 'fa').length === 5);
    expect(secB).toBeGreaterThanOrEqual(0);
    // Deploy the Allies anyhow, then put Sector B's units in its first hex while the hex is offered.
    const first = b.sectors[secB]!.hexes[0]!;
    while (s.phase === 'setup') {
      const a = s.ask as { k: 'deploy'; u: number };
      const o = opts(s);
      const mine = b.units[a.u]!.sector === secB;
      const pick = mine && o.includes(`deploy ${b.map.id(first)}`) ? `deploy ${b.map.id(first)}` : o[o.length - 1]!;
      if (mine && b.units[a.u]!.prof.type === 'fa') {
        // With 3 Inf/Cav in every hex of B (15 on 5), each hex takes one FA only.
        const here = s.hex.filter((h, u) => h === first && b.units[u]!.prof.type === 'fa').length;
        if (here >= 1) expect(deployOptions(b, s, a.u)).not.toContain(first);
      }
      s = game.apply(s, pick).state;
    }
    const inB = s.hex.filter((h) => h === first).length;
    expect(inB).toBeGreaterThanOrEqual(3);
  });
});
