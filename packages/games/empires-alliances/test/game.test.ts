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
    // The planner's hooks: who is phasing (the segment's side; its opponent only ever answers an attack)
    // and whether a combat is under way (from the hex attacked to its last advance).
    const { phasing, inCombat } = game.model as Required<NonNullable<typeof game.model>>;
    const REACTIONS = new Set(['pair-defenders', 'take-losses', 'retreat-hex']);
    const COMBAT = new Set(['attack-with', 'pair-defenders', 'split-attack', 'take-losses', 'retreat-hex']);
    for (;;) {
      const p = game.pending(s);
      const chance = chanceAt(s);
      if (p.kind === 'chance') dice++;
      if (JSON.stringify(chance) !== JSON.stringify(p.kind === 'chance' ? p.outcomes : undefined)) disagree.push(`step ${steps}: ${p.kind}`);
      if (p.kind === 'decision') {
        const reacting = !phasing(s).includes(p.power);
        if (reacting && !REACTIONS.has(p.prompt)) disagree.push(`step ${steps}: ${p.power} asked ${p.prompt} out of its segment`);
        // An advance after combat (13.9) is the combat's; one after an Automatic Victory (12.2) is not.
        const fighting = COMBAT.has(p.prompt) || (s.ask.k === 'advance' && !s.ask.av);
        if (fighting !== inCombat(s)) disagree.push(`step ${steps}: ${p.prompt} with inCombat ${inCombat(s)}`);
        if (p.prompt === 'attack-hex' || p.prompt === 'move-unit') expect(reacting).toBe(false);
        if (p.prompt === 'pair-defenders') expect(reacting).toBe(true);
      }
      if (p.kind === 'chance' && p.prompt === 'combat-die') expect(inCombat(s)).toBe(true);
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
