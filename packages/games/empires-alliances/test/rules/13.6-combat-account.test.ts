/**
 * 13.61-13.643 as the account tells them (`salient play` prints the events): who attacks which hex with
 * which units, against which defenders, then the odds column, the DRM, the die and the result. And the
 * S3 3.4 set-up, one line per hex.
 */
import { expect, it } from 'vitest';
import { game, pack } from '../support/play.ts';

it('tells each attack with its units, then its odds, DRM and die; and each side\'s set-up per hex', () => {
  let s = game.setup('1918', pack);
  let x = 99;
  const events: { type: string; text: string; data?: Record<string, unknown> }[] = [];
  for (let i = 0; i < 20000 && events.filter((e) => e.type === 'combat').length < 5; i++) {
    const p = game.pending(s);
    if (p.kind === 'terminal') break;
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    const c = p.kind === 'decision' ? p.options[x % p.options.length]! : p.outcomes[x % p.outcomes.length]!.outcome;
    const st = game.apply(s, c);
    s = st.state;
    events.push(...(st.events as typeof events));
  }
  const deploy = events.filter((e) => e.type === 'deploy');
  expect(deploy[0]!.text).toMatch(/^AL sets up in \d{4}: #\d+ \d-\d-\d [A-Z]{2} \w+/);
  expect(deploy.some((e) => e.text.startsWith('CP sets up'))).toBe(true);
  const combats = events.map((e, i) => ({ e, i })).filter(({ e }) => e.type === 'combat' && e.data?.die !== undefined);
  expect(combats.length).toBeGreaterThan(0);
  for (const { e, i } of combats) {
    const attack = events[i - 1]!;
    expect(attack.type).toBe('attack');
    expect(attack.text).toMatch(/^(CP|AL) attacks \d{4}( \([^)]+\))? with #\d+ .* against #\d+ /);
    expect(attack.data?.hex).toBe(e.data?.hex);
    expect(e.text).toMatch(/^\d{4}: \d+ attack on \d+ defense at \d+-\d+, DRM [+-]\d, die \d+ -> -?\d+: (AE|AX|AD|ND|EX|HX|DD|DE)$/);
  }
});
