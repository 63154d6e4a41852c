/**
 * 3.5 Destroyed Convoys: the Ger-Swe Convoy carries a Destroyed marker while neither Norway nor Sweden
 * provides a Resource to Germany (the pack's `fedBy`), by Sweden's trade (7.5) or by an area Germany holds.
 */
import { describe, expect, it } from 'vitest';
import { blitz } from '../../src/index.ts';
import { packOf } from '../../src/rules/pack-index.ts';
import { convoyDestroyed } from '../../src/rules/sea-combat.ts';
import { pack } from '../helpers.ts';

describe('3.5 the Ger-Swe Convoy', () => {
  const s0 = blitz.setup('full', pack);
  const p = packOf(s0.pack);
  const c = p.files.map.convoys!.find((x) => x.id === 'ger-swe-convoy')!;
  const withControl = (control: Record<string, string>) => ({ ...structuredClone(s0), control: { ...s0.control, ...control } });

  it('the pack names the countries that feed it: Norway and Sweden', () => {
    expect(c.fedBy).toEqual(['norway', 'sweden']);
  });

  it('at the start of the full game neutral Sweden trades a Resource to Germany, so it is not Destroyed', () => {
    expect(s0.control.sweden).toBe('neutral');
    expect(convoyDestroyed(p, s0, c)).toBe(false);
  });

  it('once Sweden is at war (its trade ends, 7.5) and Germany holds no Resource area of either country, it is Destroyed', () => {
    expect(convoyDestroyed(p, withControl({ sweden: 'AFA' }), c)).toBe(true);
  });

  it('Germany holding Norway\'s Resource area feeds it again; so does holding Sweden\'s', () => {
    expect(convoyDestroyed(p, withControl({ sweden: 'AFA', norway: 'GER' }), c)).toBe(false);
    expect(convoyDestroyed(p, withControl({ sweden: 'GER' }), c)).toBe(false);
  });

  it('an Allied Norway does not feed it', () => {
    expect(convoyDestroyed(p, withControl({ sweden: 'USSR', norway: 'AFA' }), c)).toBe(true);
  });
});
