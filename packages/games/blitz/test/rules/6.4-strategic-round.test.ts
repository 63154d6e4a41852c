/**
 * 6.4: the Strategic Round of a Factory Attack, with the rulebook's example of the 1st Tactical Air
 * Force over Berlin, set up on Scenario D (the Western Allies hold Belgium-Netherlands for the test, and
 * Berlin's fighters and flak are away so that no Air Round comes first).
 */
import { describe, expect, it } from 'vitest';
import { blitz } from '../../src/index.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import { arrange, combatLog, options, pack, play, prompt, until } from '../helpers.ts';

/** The Western Allies' announcement step with the 1st Tactical Air Force (Size 2) two areas from Berlin. */
function raid(damage: number): BlitzState {
  let s = arrange(blitz.setup('D', pack), {
    control: { 'belgium-netherlands': 'WA' },
    units: {
      '15th-army': null,
      'u-boat-vii': null,
      'reich-flak': null,
      'me-109s': null,
      luftwaffe: null,
      stukas: null,
      '1st-tactical-air-force': { power: 'WA', at: 'belgium-netherlands', size: 2 },
    },
  });
  s = structuredClone(until(s, 'WA', 'announce-attack'));
  if (damage) s.factoryDamage = { berlin: damage };
  return arrange(s, {});
}

function strategicRound(s: BlitzState) {
  const r = play(s, 'bomb berlin', 'add 1st-tactical-air-force', 'launch', 'done');
  const fought = play(until(r.state, 'WA', 'resolve-order'), 'resolve berlin');
  expect(prompt(fought.state)).toBe('chance:strategic-round-attacker-die');
  return combatLog(fought).find((x) => x.round === 'strategic')!;
}

describe('6.4 example: the 1st Tactical Air Force bombs Berlin', () => {
  it('a Factory Attack on Berlin is offered, air units only', () => {
    const s = raid(0);
    expect(options(s)).toContain('bomb berlin');
    expect(options(play(s, 'bomb berlin').state)).toEqual(['add 1st-tactical-air-force']);
  });

  it('its 4 Land Factors give it 2 Strategic Factors as a secondary bombing factor, plus 2 for the Factory Factor', () => {
    const round = strategicRound(raid(0));
    expect(round.attackers).toEqual(['1st-tactical-air-force']);
    expect(round.factory).toBe(2);
    expect(round.damage).toBe(0);
    expect(round.attRaw).toBe(2 + 2);
    expect(round.defFactors).toBe(0); // the side attacked never fires
  });

  it('minus 1 for the damage Berlin already has, 3 Strategic Factors in all', () => {
    const round = strategicRound(raid(1));
    expect(round.factory).toBe(2);
    expect(round.damage).toBe(1);
    expect(round.attRaw).toBe(2 + 2 - 1);
    expect(round.attFactors).toBe(3);
  });
});
