/**
 * Child processes a test starts and must not outlive it: `spawnTracked` remembers each child, and
 * `killTracked` (the test file's afterEach) SIGKILLs every one still running and waits for it to
 * exit. So a failing assertion in the middle of a test (before its own kill) leaves no `serve` or
 * `tournament run` child holding a port, a store lock or a CPU for the rest of the suite.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

const running = new Set<ChildProcess>();

/** `spawn` with pipes, the child remembered until it exits. */
export function spawnTracked(command: string, args: readonly string[], options: SpawnOptions): ChildProcess & { stdout: NodeJS.ReadableStream; stderr: NodeJS.ReadableStream } {
  const child = spawn(command, args, { stdio: 'pipe', ...options });
  running.add(child);
  child.on('exit', () => running.delete(child));
  return child as ChildProcess & { stdout: NodeJS.ReadableStream; stderr: NodeJS.ReadableStream };
}

/** Kill every tracked child that has not exited, and wait until each has. */
export async function killTracked(): Promise<void> {
  const left = [...running].filter((c) => c.exitCode === null && c.signalCode === null);
  await Promise.all(
    left.map(
      (c) =>
        new Promise<void>((resolve) => {
          c.once('exit', () => resolve());
          if (!c.kill('SIGKILL')) resolve();
        }),
    ),
  );
  running.clear();
}

/** How many tracked children are still running (for the tests of this helper). */
export function trackedRunning(): number {
  return [...running].filter((c) => c.exitCode === null && c.signalCode === null).length;
}
