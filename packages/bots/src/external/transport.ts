/** What an external bot needs from a transport (a child process, an HTTP endpoint). */
export interface Transport {
  /** Send `message` and resolve with the bot's answer as text; rejects with a `BotFault` on a fault. */
  request(message: object, what: string, signal: AbortSignal, timeoutMs: number): Promise<string>;
  /** Send a message that needs no answer; best effort, never rejects. */
  notify(message: object): Promise<void>;
  /** Release everything (kill and reap the process); idempotent. */
  close(): Promise<void>;
  /** The child's process id, for a process transport. */
  readonly pid?: number | undefined;
}
