/**
 * The stdin/stdout transport: one child process per match and seat, one JSON message per line each
 * way. The child gets its own process group (`detached`), and closing kills the whole group and waits
 * for the exit, so neither the bot nor anything it started can outlive the match or hang a worker.
 * It also gets a minimal environment (`botEnvironment`), never this process's: a worker's
 * environment holds the ClickHouse password, Redis URLs with passwords and API tokens.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { BotFault } from '@salient/runner';
import { MAX_ANSWER_BYTES, quote } from './protocol.ts';
import type { Transport } from './transport.ts';

/** How much of the bot's stderr is kept for a crash's detail. */
const STDERR_TAIL_BYTES = 4096;
/** After `end`, how long a bot may take to exit by itself before its group is killed. */
const EXIT_GRACE_MS = 250;

/** Process groups still alive, killed if this process exits first. */
const live = new Set<number>();
let exitHook = false;

/** Kill a bot's whole process group (the bot and anything it started); nothing if it is already gone. */
export function killBotGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** Variables a bot inherits from the process that starts it: what programs need to run, nothing else. */
const INHERITED = ['PATH', 'HOME', 'USER', 'LOGNAME', 'LANG', 'LANGUAGE', 'TZ', 'TMPDIR'] as const;

/**
 * A bot's environment: `PATH`, `HOME`, `USER`, `LOGNAME`, `LANG`, `LANGUAGE`, `LC_*`, `TZ` and
 * `TMPDIR` from `from` (when set), then `extra` (a registered bot's `env`). Nothing else: no
 * `SALIENT_*` setting, no password or token whatever its name. A `SALIENT_*` name in `extra` is
 * dropped too (the bots file refuses them already).
 */
export function botEnvironment(extra: Readonly<Record<string, string>> = {}, from: Readonly<Record<string, string | undefined>> = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(from)) {
    if (v !== undefined && ((INHERITED as readonly string[]).includes(k) || /^LC_[A-Z]+$/.test(k))) env[k] = v;
  }
  for (const [k, v] of Object.entries(extra)) if (!/^SALIENT_/i.test(k)) env[k] = v;
  return env;
}

/** Where and how a bot's program runs. */
export interface SpawnOptions {
  /** Working directory (default: this process's). */
  cwd?: string;
  /** Added to the minimal environment (see `botEnvironment`). */
  env?: Readonly<Record<string, string>>;
}

type GroupListener = (pid: number, alive: boolean) => void;
const listeners = new Set<GroupListener>();

/**
 * Be told when a bot's process group starts (`alive`) and when it has been killed and reaped. For a
 * worker thread's owner: a thread stopped by `Worker.terminate()` runs no exit hook, so the groups it
 * started and never closed must be killed from outside (`killBotGroup`). Returns the unsubscribe.
 */
export function watchBotProcesses(listener: GroupListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function tell(pid: number, alive: boolean): void {
  for (const l of listeners) l(pid, alive);
}

interface Waiter {
  resolve(line: string): void;
  reject(error: unknown): void;
  /** The runner stopped listening (a timeout strike): the answer, when it comes, is dropped. */
  abandoned: boolean;
}

export class ProcessTransport implements Transport {
  private readonly child: ChildProcess;
  private readonly waiters: Waiter[] = [];
  private buffered: Buffer[] = [];
  private bufferedBytes = 0;
  private stderrTail = '';
  /** Why the process can no longer answer, once it cannot. */
  private fault: BotFault | undefined;
  private readonly exited: Promise<void>;
  private closed = false;
  /** Watchers were told the group is gone. */
  private released = false;
  /** Woken whenever a waiter leaves the queue (its line came, or the process failed), for `idle`. */
  private wakers: (() => void)[] = [];

  constructor(
    readonly argv: readonly string[],
    private readonly where: string,
    o: SpawnOptions = {},
  ) {
    const [file, ...args] = argv as [string, ...string[]];
    this.child = spawn(file, args, { detached: true, stdio: ['pipe', 'pipe', 'pipe'], env: botEnvironment(o.env), ...(o.cwd !== undefined ? { cwd: o.cwd } : {}) });
    const pid = this.child.pid;
    if (pid !== undefined) {
      live.add(pid);
      tell(pid, true);
      if (!exitHook) {
        exitHook = true;
        process.once('exit', () => live.forEach(killBotGroup));
      }
    }
    this.exited = new Promise((resolve) => {
      this.child.once('error', (e) => {
        this.failAll(new BotFault('crash', `could not start '${file}'${o.cwd !== undefined ? ` in ${o.cwd}` : ''} (${e.message}); check the command line, that the program is installed${o.cwd !== undefined ? ' and that the directory exists' : ''}`));
        resolve();
      });
      this.child.once('exit', (code, signal) => {
        if (pid !== undefined) live.delete(pid);
        // Let stderr drain a moment so the crash detail has the bot's last words.
        const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
        const settle = () => {
          this.failAll(new BotFault('crash', `${how}${this.closed ? '' : ' before answering'}${this.stderrText()}`));
          resolve();
        };
        if (this.child.stderr?.readableEnded) settle();
        else {
          const t = setTimeout(settle, 100);
          this.child.stderr?.once('close', () => (clearTimeout(t), settle()));
        }
      });
    });
    this.child.stdout?.on('data', (chunk: Buffer) => this.onStdout(chunk));
    this.child.stderr?.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
    });
    // A bot that exits while we write gives EPIPE; its exit is reported instead.
    this.child.stdin?.on('error', () => undefined);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  request(message: object, what: string, signal: AbortSignal): Promise<string> {
    if (this.fault) return Promise.reject(this.fault);
    if (signal.aborted) return Promise.reject(new Error(`did not send ${what}: the runner had stopped listening (${String(signal.reason)})`));
    return new Promise<string>((resolve, reject) => {
      const w: Waiter = { resolve, reject, abandoned: false };
      this.waiters.push(w);
      const onAbort = () => {
        w.abandoned = true;
        reject(new Error(`stopped waiting for the answer to ${what} (${String(signal.reason)})`));
        // A timeout strike keeps the bot playing; anything else ends it now.
        if (signal.reason !== 'timeout') void this.close();
      };
      signal.addEventListener('abort', onAbort, { once: true });
      const done = () => signal.removeEventListener('abort', onAbort);
      w.resolve = (line) => (done(), resolve(line));
      w.reject = (e) => (done(), reject(e));
      this.write(message);
    });
  }

  async idle(): Promise<void> {
    const owed = this.waiters.some((w) => w.abandoned);
    while (!this.fault && this.waiters.some((w) => w.abandoned)) await new Promise<void>((wake) => this.wakers.push(wake));
    if (owed && this.fault) throw this.fault;
  }

  async notify(message: object): Promise<void> {
    if (!this.fault) this.write(message);
  }

  async close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      this.child.stdin?.end();
      const pid = this.child.pid;
      if (pid !== undefined) {
        const grace = new Promise<void>((r) => setTimeout(r, EXIT_GRACE_MS).unref());
        await Promise.race([this.exited, grace]);
        // Also reaches anything the bot started in its group, even when the bot itself has exited.
        killBotGroup(pid);
      }
    }
    await this.exited;
    if (this.child.pid !== undefined && !this.released) {
      this.released = true;
      tell(this.child.pid, false);
    }
  }

  private write(message: object): void {
    this.child.stdin?.write(`${JSON.stringify(message)}\n`);
  }

  private onStdout(chunk: Buffer): void {
    let from = 0;
    for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, from)) {
      this.buffered.push(chunk.subarray(from, nl));
      const line = Buffer.concat(this.buffered).toString('utf8').trim();
      this.buffered = [];
      this.bufferedBytes = 0;
      from = nl + 1;
      if (line !== '') this.onLine(line);
    }
    if (from < chunk.length) {
      this.buffered.push(chunk.subarray(from));
      this.bufferedBytes += chunk.length - from;
      if (this.bufferedBytes > MAX_ANSWER_BYTES) {
        const start = Buffer.concat(this.buffered).subarray(0, 200).toString('utf8');
        this.failAll(new BotFault('illegal', `sent a line longer than ${MAX_ANSWER_BYTES} bytes (${quote(start)}); answers are one short JSON object per line`));
        void this.close();
      }
    }
  }

  private onLine(line: string): void {
    const w = this.waiters.shift();
    if (!w) {
      this.failAll(new BotFault('illegal', `sent ${quote(line)} when no answer was due; write logs to stderr, not stdout`));
      return;
    }
    if (!w.abandoned) w.resolve(line);
    this.wake();
  }

  private wake(): void {
    for (const wake of this.wakers.splice(0)) wake();
  }

  private stderrText(): string {
    const t = this.stderrTail.trim();
    return t ? `; its stderr ends: ${t.length > 1000 ? `...${t.slice(-1000)}` : t}` : '; it wrote nothing to stderr';
  }

  private failAll(fault: BotFault): void {
    this.fault ??= new BotFault(fault.reason, `${fault.message} (${this.where})`);
    for (const w of this.waiters.splice(0)) if (!w.abandoned) w.reject(this.fault);
    this.wake();
  }
}
