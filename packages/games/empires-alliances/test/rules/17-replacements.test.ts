/** 17.2 Replacements with 19.1-19.2 and 21.32: the turn's RPs, costs (17.24, 17.32), the 22.9 refund. */
import { describe, expect, it } from 'vitest';
import { addCapped, blockadeLoss, replacementCost, retreatRefund, submarineLoss, turnRp } from '../../src/rules/replacements.ts';
import { prof } from '../helpers.ts';

describe('19.1/19.2 blockade and submarines (19.11, 19.21)', () => {
  it('Germany loses 6 Inf and 1 Art RP a turn in 1918, A-H 2 and 1; Britain 1 Inf', () => {
    expect(blockadeLoss('GE', 1918)).toEqual({ inf: 6, art: 1, tank: 0 });
    expect(blockadeLoss('AH', 1918)).toEqual({ inf: 2, art: 1, tank: 0 });
    expect(blockadeLoss('GE', 1916)).toEqual({ inf: 2, art: 0, tank: 0 });
    expect(submarineLoss('GB', 1918)).toBe(1);
    expect(submarineLoss('GB', 1916)).toBe(0);
    expect(submarineLoss('FR', 1918)).toBe(0);
  });
});

describe('17.2 the turn\'s RPs (7.21, 21.32)', () => {
  it("the text's example: 24 gross less the blockade's 6 is 18, and R10 takes 2 of them", () => {
    expect(turnRp('GE', 1918, { inf: 24, art: 3, tank: 0 }, 10)).toEqual({ inf: 16, art: 2, tank: 0 });
  });
  it('R30 also takes an Art RP, or a Tank RP when there is no Art', () => {
    expect(turnRp('FR', 1918, { inf: 10, art: 2, tank: 1 }, 30)).toEqual({ inf: 7, art: 1, tank: 1 });
    expect(turnRp('FR', 1918, { inf: 10, art: 0, tank: 1 }, 30)).toEqual({ inf: 7, art: 0, tank: 0 });
  });
  it('caps what is stored at the OB maximum (17.21)', () => {
    expect(addCapped({ inf: 20, art: 5, tank: 0 }, { inf: 10, art: 3, tank: 1 }, { inf: 24, art: 6, tank: 2 })).toEqual({ inf: 24, art: 6, tank: 1 });
  });
});

describe('17.2 costs (17.24, 17.32)', () => {
  it('a 5-7-4 costs 5 Inf RPs (the 17.24 example); Stosstruppen and Siege 6 each', () => {
    expect(replacementCost(prof('gb-inf-574'))).toEqual({ kind: 'inf', amount: 5 });
    expect(replacementCost(prof('ge-stoss-574'))).toEqual({ kind: 'inf', amount: 6 });
    expect(replacementCost(prof('fr-siege-323'))).toEqual({ kind: 'art', amount: 6 });
    expect(replacementCost(prof('fr-fa-333'))).toEqual({ kind: 'art', amount: 3 });
    expect(replacementCost(prof('gb-tank-222'))).toEqual({ kind: 'tank', amount: 2 });
    expect(replacementCost(prof('ge-cav-445'))).toEqual({ kind: 'inf', amount: 4 });
  });
});

describe('22.9 retreat refund', () => {
  it("the text's example: two 5-7-4s and a 3-3-3 refund 5 Inf and 1 Art", () => {
    expect(retreatRefund([prof('ge-inf-574'), prof('ge-inf-574'), prof('ge-fa-333')])).toEqual({ inf: 5, art: 1, tank: 0 });
  });
});

describe('17.2 RPs in play (S3 3.52)', () => {
  it('gives Germany 18 Inf and 2 Art RPs in March 1918 (24 and 3 less the blockade), Britain 7 (less submarines), the Commonwealth 2 stored + 1', async () => {
    const { start, play } = await import('../support/play.ts');
    const { s } = start();
    expect(s.rp.GE).toEqual([18, 2, 0]);
    const al = play(s, 'done', 'done').s; // into the Allied segment
    expect(al.rp.GB).toEqual([7, 2, 1]);
    expect(al.rp.CA).toEqual([3, 0, 0]);
    expect(al.rp.AH).toBeUndefined();
    expect(al.rp.BE).toBeUndefined();
  });
});
