/**
 * 3.3 allying with neutral minors, the rulebook's example replayed in the full game: a German declaration
 * on Belgium-Netherlands, Japan's declaration on the AFA bringing in South-East Asia, and Germany's
 * taking of Gibraltar bringing in Iberia in the middle of a combat phase.
 */
import { describe, expect, it } from 'vitest';
import { blitz } from '../../src/index.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import { packOf } from '../../src/rules/pack-index.ts';
import { hostileLand } from '../../src/rules/wars.ts';
import { arrange, eventsOf, options, pack, play, prompt, reach, until } from '../helpers.ts';

describe('3.3 example: declarations on Belgium-Netherlands and the AFA', () => {
  const s0 = reach(blitz.setup('full', pack), 'GER', 'move-pick');

  it('Germany declares war on Belgium-Netherlands, which the AFA ally, with its army', () => {
    const r = play(s0, 'declare belgium-netherlands');
    expect(r.state.control['belgium-netherlands']).toBe('AFA');
    expect(r.state.units['belg-neth-army']).toMatchObject({ power: 'AFA', at: 'belgium-netherlands' });
  });

  it('Japan then declares war on the AFA, which lets it align South-East Asia, whose army then moves into Burma', () => {
    const j = until(play(s0, 'declare belgium-netherlands').state, 'JAP', 'move-pick');
    const r = play(j, 'declare AFA');
    expect(eventsOf(r, 'alignment').map((e) => e.data!.country)).toContain('south-east-asia');
    expect(r.state.units['south-east-asia-army']).toMatchObject({ power: 'JAP', at: 'south-east-asia' });
    expect(r.state.control.burma).toBe('AFA');
    const m = play(r.state, 'move south-east-asia-army');
    expect(options(m.state)).toContain('to burma');
    const m2 = play(m.state, 'to burma');
    expect(m2.state.control.burma).toBe('JAP');
  });

  it('3.3 example: the Dutch colonies go with Belgium-Netherlands, so Japan, at war with the AFA, may invade Borneo without declaring war on it', () => {
    const g = play(s0, 'declare belgium-netherlands').state;
    expect(g.control.borneo).toBe('AFA');
    const j = until(g, 'JAP', 'move-pick');
    expect(options(j)).not.toContain('declare borneo');
    const r = play(j, 'declare AFA');
    expect(hostileLand(packOf(r.state.pack), r.state, ['JAP'], 'borneo')).toBe(true);
    expect(options(r.state)).not.toContain('declare borneo');
  });
});

describe('3.3 example: Iberia joins Germany in the middle of the combats', () => {
  // The full game with Germany holding Paris (Army Group B there) and a German army at sea in the
  // Mediterranean off Gibraltar. The pack has no German TRS, so the Europe Trs. counter stands in under
  // German control; Gibraltar's GHQ FORT is off the map so the landing takes it at once.
  const announced = (): BlitzState => {
    const s = until(
      arrange(blitz.setup('full', pack), {
        control: { paris: 'GER' },
        units: {
          'maginot-line': null,
          'french-1st-army': null,
          'french-7th-army': null,
          'armee-de-l-air': null,
          bef: null,
          'ghq-fort': null,
          'army-group-b': { at: 'paris', size: 2 },
          'europe-trs': { power: 'GER', at: 'sea:mediterranean', size: 2 },
          'waffen-ss-army': { power: 'GER', at: 'trs:europe-trs', size: 2 },
        },
      }),
      'GER',
      'announce-attack',
    );
    // Every attack is announced, with its units, before any is resolved.
    const r = play(s, 'attack gibraltar', 'add waffen-ss-army', 'launch', 'attack vichy-france', 'add army-group-b', 'launch', 'done');
    return until(r.state, 'GER', 'resolve-order');
  };

  it('Iberia is neutral while the attacks are announced', () => {
    const s = announced();
    expect(s.control.spain).toBe('neutral');
    expect(s.units['spanish-army']).toBeUndefined();
    expect(options(s)).toEqual(['resolve gibraltar', 'resolve vichy-france']);
  });

  it('taking Gibraltar aligns Iberia with Germany at once, and the Spanish Army takes the field in Spain', () => {
    const r = play(announced(), 'resolve gibraltar');
    expect(r.state.control.gibraltar).toBe('GER');
    expect(r.state.control.spain).toBe('GER');
    expect(r.state.units['spanish-army']).toMatchObject({ power: 'GER', at: 'spain' });
  });

  it('but the Spanish Army, next to Vichy France, cannot join the Ground Attack on it announced before', () => {
    const r = play(announced(), 'resolve gibraltar');
    expect(prompt(r.state)).toBe('GER:resolve-order');
    const v = play(r.state, 'resolve vichy-france');
    expect(eventsOf(v, 'combat-start')[0]!.data!.attackers).toEqual(['army-group-b']);
  });
});
