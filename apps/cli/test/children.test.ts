/** The tests' child tracking (children.ts): afterEach's kill leaves nothing running. */
import { describe, expect, it } from 'vitest';
import { killTracked, spawnTracked, trackedRunning } from './children.ts';

describe('tracked children', () => {
  it('killTracked ends every child still running and waits for its exit; an exited child is forgotten', async () => {
    const done = spawnTracked(process.execPath, ['-e', '0'], {});
    await new Promise((r) => done.on('exit', r));
    const sleepers = [1, 2].map(() => spawnTracked(process.execPath, ['-e', 'setTimeout(() => {}, 600000)'], {}));
    expect(trackedRunning()).toBe(2);
    await killTracked();
    expect(trackedRunning()).toBe(0);
    for (const s of sleepers) expect(s.signalCode).toBe('SIGKILL');
  });
});
