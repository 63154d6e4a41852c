import { it } from 'vitest';
import { arrange, start, options, play, prompt } from '../helpers.ts';
import { blitz } from '../../src/index.ts';
it('scratch', () => {
  let s = arrange(start('A'), { control: { paris: 'neutral' } });
  for (let i = 0; i < 20; i++) {
    const p = blitz.pending(s);
    console.log(s.impulse, prompt(s), options(s).join('|'), s.units['royal-air-force']!.at, s.control.paris);
    if (p.kind !== 'decision' || (p.power === 'AFA' && p.prompt === 'rebase-pick')) break;
    const pass = p.options.find((o) => o === 'done' || o === 'stop' || o === 'launch') ?? p.options[0]!;
    s = blitz.apply(s, pass).state;
  }
  console.log(options(play(s, 'rebase royal-air-force').state));
});
