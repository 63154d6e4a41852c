/** 1.6: no unit enters or flies over neutral land until war is declared on it. */
import { describe, expect, it } from 'vitest';
import { arrange, options, play, skipTo, start } from '../helpers.ts';

describe('1.6 neutral territory', () => {
  it('land units cannot enter neutral Belgium-Netherlands, and can after war is declared', () => {
    const s = skipTo(arrange(start('A'), { units: { 'army-group-center': { at: 'western-germany' } } }), 'move-pick');
    const r = play(s, 'move army-group-center');
    expect(options(r.state)).not.toContain('to belgium-netherlands');
    expect(options(r.state)).toContain('to berlin');
  });

  it('air units cannot pass over neutral land when rebasing', () => {
    // From Western Germany, with Paris and Western Germany the only ways west, nothing routes through BeNe.
    const s = skipTo(arrange(start('A'), { units: { luftwaffe: { at: 'western-germany' } }, control: { paris: 'GER', 'vichy-france': 'GER' } }), 'rebase-pick');
    const r = play(s, 'rebase luftwaffe');
    expect(options(r.state)).not.toContain('to belgium-netherlands');
    expect(options(r.state)).toContain('to paris');
  });
});
