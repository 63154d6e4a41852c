/** 7 Sequence of play: weather, the CP segment, the Allied segment, national morale, the next turn. */
import { describe, expect, it } from 'vitest';
import { game, opts, play, SCHEMES, start } from '../support/play.ts';

describe.each(SCHEMES)('on the %s grid', (scheme) => {
  describe('7 sequence of play', () => {
    it('March 1918 has no weather roll (3.66) and opens with the CP Movement Phase (7.2)', () => {
      const { s } = start(undefined, scheme);
      expect(game.position(s)).toMatchObject({ turn: 1, impulse: 1, phase: 'cp-move' });
      expect(game.pending(s)).toMatchObject({ kind: 'decision', power: 'CP', prompt: 'move-unit' });
    });

    it('runs CP movement, CP combat, Allied movement, Allied combat, then morale at the end of March (7.4, 3.68a)', () => {
      const { s } = start(undefined, scheme);
      let x = play(s, 'done');
      expect(game.position(x.s).phase).toBe('cp-combat');
      x = play(x.s, 'done');
      expect(game.position(x.s)).toMatchObject({ impulse: 2, phase: 'al-move' });
      expect(game.pending(x.s)).toMatchObject({ power: 'AL' });
      x = play(x.s, 'done', 'done');
      // Four morale rolls: Germany, Britain, Belgium, France (3.68b); A-H not by default (ruling s3-ah-morale).
      expect(game.pending(x.s)).toMatchObject({ kind: 'chance', stream: 'morale' });
      x = play(x.s, 'die 1', 'die 1', 'die 1', 'die 1');
      expect(x.events.filter((e) => e.type === 'war-weariness').map((e) => (e.data as { nation: string }).nation)).toEqual(['GE', 'GB', 'BE', 'FR']);
      // April: the weather die (7.1).
      expect(game.pending(x.s)).toMatchObject({ kind: 'chance', stream: 'weather' });
      expect(game.position(x.s)).toMatchObject({ turn: 2, phase: 'weather' });
    });

    it('ends after November 1918 with the 3.72 result (3.1)', () => {
      let { s } = start(undefined, scheme);
      for (let i = 0; i < 5000 && game.pending(s).kind !== 'terminal'; i++) {
        const p = game.pending(s);
        s = game.apply(s, p.kind === 'chance' ? 'die 1' : opts(s).includes('done') ? 'done' : opts(s)[0]!).state;
      }
      expect(game.pending(s).kind).toBe('terminal');
      expect(game.position(s).turn).toBe(9);
      expect(game.result(s).reason).toMatch(/November 1918/);
    });
  });
});
