/**
 * 6.5: in an Air Round some CVs that take losses turn into BBs (the counter's reduced side shows a BB),
 * yet they still count as air units for that round's returns to base. The bundled pack's carriers have
 * no BB side (the counters are not in the text), so this runs on the sea test bed with the Graf Zeppelin
 * given one: a made-up counter, for the test only.
 */
import { describe, expect, it } from 'vitest';
import { blitz } from '../../src/index.ts';
import { chartResult } from '../../src/rules/combat-chart.ts';
import { packOf } from '../../src/rules/pack-index.ts';
import { typeOf } from '../../src/rules/query.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import { arrange, checkedPack, options, play, prompt, skipTo } from '../helpers.ts';
import { seaTestFiles } from '../support/sea-test-pack.ts';
import { expectIssue, fresh } from '../support/pack-fixtures.ts';

const files = seaTestFiles();
const graf = files.units.units.find((u) => u.id === 'graf-zeppelin')!;
graf.sizes['1'] = { ...graf.sizes['1']!, type: 'BB' };
const pack = checkedPack(files, 'sea test bed with a CV that has a BB side');
const p = packOf(blitz.setup('B', pack).pack);

/** die N giving `want` on column `total` of the pack's chart. */
const die = (total: number, want: (r: { damage: number; letter: string | null }) => boolean): string => {
  for (let d = 1; d <= 6; d++) if (want(chartResult(pack.data['combat-chart'], total, d))) return `die ${d}`;
  throw new Error(`no die on column ${total}`);
};

/** An Air Round in the Western Approaches: the Graf Zeppelin (CV at Size 2, BB at Size 1) and the Luftwaffe against three Allied air units. */
function airRound(grafSize = 2): BlitzState {
  const s = arrange(blitz.setup('B', pack), {
    units: {
      'high-seas-fleet': { at: 'sea:western-approaches' },
      'graf-zeppelin': { power: 'GER', size: grafSize, at: 'sea:western-approaches' },
      luftwaffe: { at: 'sea:western-approaches' },
      'north-sea-fleet': { at: 'sea:western-approaches' },
      'canadian-air-force': { at: 'sea:western-approaches' },
      'royal-air-force': { at: 'sea:western-approaches' },
    },
  });
  return play(skipTo(s, 'fly-to-sea-combat'), 'fly coastal-command').state;
}

describe('6.5 a CV turned BB by losses in an Air Round', () => {
  it('the Graf Zeppelin hit at Size 2 shows its BB side: it is a BB from then on', () => {
    const s = airRound();
    expect(s.sea?.log[0]).toMatchObject({ round: 'air', attackers: ['graf-zeppelin', 'luftwaffe'], defFactors: 4 });
    expect(typeOf(p, s.units['graf-zeppelin']!)).toBe('CV');
    const miss = die(4, (r) => r.damage === 0 && !r.letter);
    const r = play(s, miss, die(4, (r) => r.damage === 1 && !r.letter), 'hit graf-zeppelin');
    expect(r.state.units['graf-zeppelin']!.size).toBe(1);
    expect(typeOf(p, r.state.units['graf-zeppelin']!)).toBe('BB');
  });

  it('it still counts as an air unit for that round\'s returns to base: an S on two units sends one back, and it may be the one', () => {
    const s = airRound();
    const miss = die(4, (r) => r.damage === 0 && !r.letter);
    const r = play(s, miss, die(4, (r) => r.damage === 1 && r.letter === 'S'), 'hit graf-zeppelin');
    expect(prompt(r.state)).toBe('GER:return-to-base');
    expect(options(r.state)).toEqual(['rtb graf-zeppelin', 'rtb luftwaffe']);
  });

  it('a carrier already on its BB side when the round began is a ship: it neither fights in the Air Round nor goes back with its letters', () => {
    const s = airRound(1);
    expect(s.sea?.log[0]).toMatchObject({ round: 'air', attackers: ['luftwaffe'] });
    const miss = die(s.sea!.log[0]!.attFactors as number, (r) => r.damage === 0 && !r.letter);
    const def = s.sea!.log[0]!.defFactors as number;
    // An L on one air unit sends it back: the Luftwaffe alone, with nothing to choose.
    const r = play(s, miss, die(def, (r) => r.damage === 0 && r.letter === 'L'));
    expect(prompt(r.state)).not.toBe('GER:return-to-base');
    expect(prompt(r.state)).toBe('GER:return-to-base-where');
    expect(r.state.sea?.tasks[0]).toMatchObject({ kind: 'base', unit: 'luftwaffe' });
    expect(r.state.units['graf-zeppelin']!.at).toBe('sea:western-approaches');
  });

  it('the pack says which counters may show a BB: only a CV, and never on its full-Size side', () => {
    const raw = fresh();
    const bb = raw.units.units.findIndex((u: { type: string }) => u.type === 'BB');
    raw.units.units[bb].sizes['1'].type = 'BB';
    expectIssue(raw, `$.units.units[${bb}].sizes["1"].type`, /only a CV's counter may show a BB/);
    const raw2 = fresh();
    const cv = raw2.units.units.findIndex((u: { type: string }) => u.type === 'CV');
    raw2.units.units[cv].sizes['2'].type = 'BB';
    expectIssue(raw2, `$.units.units[${cv}].sizes["2"].type`, /its full-Size side must be the CV/);
  });
});
