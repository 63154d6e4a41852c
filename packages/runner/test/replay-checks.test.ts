/**
 * A re-run replay checks every field that determines its game, on replays the runner really wrote:
 * the seed against every chance outcome, the rules version, the pack record, the options, and the
 * shape (no field nobody reads).
 */
import { describe, expect, it } from 'vitest';
import { parseReplay, runReplay, SalientError, type Replay } from '@salient/engine';
import { diceRace, diceRacePack } from '@salient/engine/testing';
import { runMatch } from '../src/index.ts';
import { diceSpec } from './helpers.ts';

/** A Dice Race replay written by runMatch with random bots (which draw from their own streams). */
async function recorded(seed: number): Promise<Replay> {
  const r = await runMatch(diceSpec(seed));
  // Through JSON, as a file or a stored row gives it back.
  return parseReplay(JSON.parse(JSON.stringify(r.replay)));
}

function thrown(f: () => unknown): SalientError {
  try {
    f();
  } catch (e) {
    if (e instanceof SalientError) return e;
    throw e;
  }
  throw new Error('expected a SalientError');
}

describe('re-running a replay', () => {
  it('passes for what the runner wrote, though the bots drew from their own streams', async () => {
    for (const seed of [1, 7, 123_456]) {
      const replay = await recorded(seed);
      expect(replay.log.some((e) => e.by === 'chance')).toBe(true);
      expect(runReplay(diceRace, diceRacePack, replay).matches).toBe(true);
    }
  });

  it('re-draws every chance outcome from the seed: a changed seed is a mismatch at the first die it changes', async () => {
    const replay = await recorded(7);
    for (const seed of [8, 0, 2 ** 40]) {
      const e = thrown(() => runReplay(diceRace, diceRacePack, { ...replay, seed }));
      expect(e.code).toBe('REPLAY_MISMATCH');
      expect(e.message).toMatch(new RegExp(`^\\$\\.log\\[\\d+\\]: the logged chance outcome 'die:\\d' \\(.*, stream 'dice'\\) is not what seed ${seed} gives there: 'die:\\d'`));
      const i = Number(/^\$\.log\[(\d+)\]/.exec(e.message)![1]);
      expect(replay.log[i]!.by).toBe('chance');
    }
  });

  it('refuses a seed that is not a match seed, by path', async () => {
    const replay = await recorded(7);
    for (const [seed, why] of [[-1, /must be 0 or more/], [7.5, /whole number/], [2 ** 53, /at most/]] as const) {
      const e = thrown(() => parseReplay({ ...replay, seed }));
      expect(e.code).toBe('BAD_REPLAY');
      expect(e.issues).toContainEqual({ path: '$.seed', message: expect.stringMatching(why) });
      expect(e.issues.every((i) => i.path === '$.seed')).toBe(true);
      // And a replay object that skipped parseReplay is refused the same way.
      expect(thrown(() => runReplay(diceRace, diceRacePack, { ...replay, seed })).message).toMatch(/^\$\.seed: /);
    }
  });

  it('refuses another rules version, saying which and what to do', async () => {
    const replay = await recorded(7);
    const e = thrown(() => runReplay(diceRace, diceRacePack, { ...replay, rulesVersion: '0.9.0' }));
    expect(e.code).toBe('BAD_REPLAY');
    expect(e.message).toMatch(/^\$\.rulesVersion: the replay was recorded under dice-race rules 0\.9\.0, and this code has rules 1, so it cannot check it\. Re-run it with/);
  });

  it('checks every field of the pack record, not only its hash', async () => {
    const replay = await recorded(7);
    for (const pack of [{ version: '2' }, { id: 'other' }, { fidelity: 'official' }]) {
      const e = thrown(() => runReplay(diceRace, diceRacePack, { ...replay, pack: { ...replay.pack, ...pack } }));
      expect(e.code).toBe('REPLAY_MISMATCH');
      expect(e.message).toMatch(/^\$\.pack: the replay was recorded with pack/);
    }
  });

  it('refuses options the game does not take', async () => {
    const replay = await recorded(7);
    expect(thrown(() => runReplay(diceRace, diceRacePack, { ...replay, options: { fog: true } })).code).toBe('BAD_OPTION');
  });

  it('refuses unknown fields anywhere in the header or the log, each by its path', async () => {
    const replay = await recorded(7);
    const raw = JSON.parse(JSON.stringify(replay)) as Record<string, any>;
    raw.comment = 'edited';
    raw.pack.signedBy = 'me';
    raw.log[3].note = 'x';
    const e = thrown(() => parseReplay(raw));
    expect(e.code).toBe('BAD_REPLAY');
    expect(new Set(e.issues)).toEqual(
      new Set([
        { path: '$', message: 'Unrecognized key: "comment"' },
        { path: '$.pack', message: 'Unrecognized key: "signedBy"' },
        { path: '$.log[3]', message: 'Unrecognized key: "note"' },
      ]),
    );
  });

  it('refuses runaway nesting before the schema walks it', async () => {
    const replay = await recorded(7);
    let deep: unknown = 0;
    for (let i = 0; i < 50_000; i++) deep = [deep];
    const started = performance.now();
    const e = thrown(() => parseReplay({ ...replay, options: { deep } }));
    expect(performance.now() - started).toBeLessThan(1000);
    expect(e.message).toMatch(/^replay: nested deeper than 64 levels at \$\.options\.deep\[0\]/);
  });

  it('refuses a match seed no replay would accept', async () => {
    await expect(runMatch(diceSpec(-1))).rejects.toMatchObject({ code: 'BAD_ARGUMENT', message: expect.stringMatching(/^seed -1 must be 0 or more/) });
  });
});
