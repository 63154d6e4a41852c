/** A.5: an AFA land unit in London may cross straight to Paris and stops there; London is never left empty. */
import { describe, expect, it } from 'vitest';
import { options, play, skipTo, start } from '../helpers.ts';

function afaMoves() {
  const t = skipTo(start('A'), 'announce-attack');
  return skipTo(play(t, 'done').state, 'move-pick');
}

describe('A.5 overseas move', () => {
  it('the B.E.F. may move London -> Paris and must stop there', () => {
    const r = play(afaMoves(), 'move bef', 'to paris');
    expect(r.state.units.bef!.at).toBe('paris');
    expect(r.state.sel).toBeNull();
  });

  it('the last land unit in London may not leave', () => {
    const r = play(afaMoves(), 'move bef', 'to paris');
    // Only the Home Guard is left in London: it is not offered.
    expect(options(r.state)).not.toContain('move home-guard');
  });

  it('the crossing is not offered to a unit that already moved this turn', () => {
    const r = play(afaMoves(), 'move bef', 'to scotland');
    expect(r.state.units.bef!.at).toBe('scotland');
    expect(options(r.state)).not.toContain('move bef');
  });
});
