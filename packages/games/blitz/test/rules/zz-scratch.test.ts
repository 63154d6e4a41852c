import { it } from 'vitest';
import { options, play, prompt, skipTo, start } from '../helpers.ts';
import { blitz } from '../../src/index.ts';
it('scratch', () => {
  let s = start('B');
  for (let i = 0; i < 40; i++) {
    const p = blitz.pending(s);
    console.log(s.turn, s.impulse, s.step, prompt(s), options(s).join(' | '));
    if (p.kind !== 'decision') break;
    const pass = p.options.find((o) => o === 'done' || o === 'stop' || o === 'launch') ?? p.options[0]!;
    s = blitz.apply(s, pass).state;
  }
});
