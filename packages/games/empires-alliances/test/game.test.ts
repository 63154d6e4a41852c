/** The Game on the synthetic front: set-up, a first decision, a random game to the end. */
import { describe, expect, it } from 'vitest';
import { empiresAlliances as game } from '../src/game.ts';
import { FRONT_SCHEMES, frontPack, type FrontScheme } from './support/front-map.ts';

function loaded(scheme: FrontScheme) {
  const r = game.checkPack(frontPack(scheme));
  if (!r.ok) throw new Error(r.issues.map((i) => `${i.path}: ${i.message}`).join('\n'));
  return r.pack;
}

describe.each(FRONT_SCHEMES)('the game on a synthetic front (%s grid)', (scheme) => {
  it('sets up S3 and asks the Central Powers to move in March 1918 (Mud, 3.66)', () => {
    const pack = loaded(scheme);
    const s = game.setup('1918', pack, { deploy: 'deal' });
    expect(s.wx).toBe('mud');
    const p = game.pending(s);
    expect(p.kind).toBe('decision');
    if (p.kind === 'decision') {
      expect(p.power).toBe('CP');
      expect(p.options).toContain('done');
    }
    expect(s.hex.filter((h) => h >= 0).length).toBeGreaterThan(100);
  });

  it('plays a random game to its end by the victory rules', () => {
    const pack = loaded(scheme);
    let s = game.setup('1918', pack);
    let x = 12345;
    const rnd = (n: number) => {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      return x % n;
    };
    let steps = 0;
    // The greedy bot's shortcut (`model.chanceAt`) must say what `pending` says of every die, and nothing elsewhere.
    const chanceAt = game.model!.chanceAt!;
    let dice = 0;
    const disagree: string[] = [];
    for (;;) {
      const p = game.pending(s);
      const chance = chanceAt(s);
      if (p.kind === 'chance') dice++;
      if (JSON.stringify(chance) !== JSON.stringify(p.kind === 'chance' ? p.outcomes : undefined)) disagree.push(`step ${steps}: ${p.kind}`);
      if (p.kind === 'terminal') break;
      const c = p.kind === 'decision' ? p.options[rnd(p.options.length)]! : p.outcomes[rnd(p.outcomes.length)]!.outcome;
      s = game.apply(s, c).state;
      steps++;
      expect(steps).toBeLessThan(100000);
    }
    expect(disagree).toEqual([]);
    expect(dice).toBeGreaterThan(10);
    const r = game.result(s);
    expect(Object.values(r.sides).sort()).toEqual(expect.arrayContaining([expect.stringMatching(/win|loss|draw/)]));
    expect(r.reason).toMatch(/3.71/);
  });
});
