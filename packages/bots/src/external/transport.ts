/** What an external bot needs from a transport (a child process, an HTTP endpoint). */
export interface Transport {
  /** Send `message` and resolve with the bot's answer as text; rejects with a `BotFault` on a fault. */
  request(message: object, what: string, signal: AbortSignal, timeoutMs: number): Promise<string>;
  /**
   * Resolves once every request sent has had its answer, including the ones the runner stopped
   * waiting for at a timeout strike (read and dropped); rejects with a `BotFault` if the bot can no
   * longer answer them (its process died meanwhile).
   */
  idle(): Promise<void>;
  /** Send a message that needs no answer; best effort, never rejects. */
  notify(message: object): Promise<void>;
  /** Release everything (kill and reap the process); idempotent. */
  close(): Promise<void>;
  /** The child's process id, for a process transport. */
  readonly pid?: number | undefined;
}
