/**
 * The HTTP transport: every message is POSTed as JSON to the bot's URL and the answer is the response
 * body. Each match and seat has its own `session` id in every message, so one server can play many
 * games at once. A request is cut off when the runner stops listening, except at a timeout strike:
 * that request stays open for the late answer (dropped when it comes), so that a server busy with it
 * is not sent the next decision meanwhile (`idle`), up to its own `timeoutMs` or the transport's close.
 */
import { randomUUID } from 'node:crypto';
import { BotFault } from '@salient/runner';
import { MAX_ANSWER_BYTES, quote } from './protocol.ts';
import type { Transport } from './transport.ts';

/** How long an `end` notice may take before it is dropped. */
const END_TIMEOUT_MS = 2000;

export class HttpTransport implements Transport {
  readonly session = randomUUID();
  private closed = false;
  /** Aborted at close: cuts off whatever is still in flight. */
  private readonly shut = new AbortController();
  /** Requests not settled yet, answered or not. */
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(readonly url: string) {}

  async request(message: object, what: string, signal: AbortSignal, timeoutMs: number): Promise<string> {
    if (this.closed) throw new BotFault('crash', `was closed before ${what}`);
    const cut = new AbortController();
    const onStop = () => {
      // A timeout strike keeps the request open for the late answer; anything else ends it now.
      if (signal.reason !== 'timeout') cut.abort(signal.reason);
    };
    if (signal.aborted) onStop();
    else signal.addEventListener('abort', onStop, { once: true });
    const posted = this.post(message, what, AbortSignal.any([cut.signal, this.shut.signal, AbortSignal.timeout(timeoutMs)]));
    const settled = posted.then(
      () => undefined,
      () => undefined,
    );
    this.inFlight.add(settled);
    void settled.then(() => {
      this.inFlight.delete(settled);
      signal.removeEventListener('abort', onStop);
    });
    // The runner stops waiting at the abort; the request itself may go on (see `idle`).
    const stopped = new Promise<never>((_resolve, reject) => {
      const give = () => reject(new Error(`stopped waiting for the answer to ${what} (${String(signal.reason)})`));
      if (signal.aborted) give();
      else signal.addEventListener('abort', give, { once: true });
      void settled.then(() => signal.removeEventListener('abort', give));
    });
    stopped.catch(() => undefined);
    return Promise.race([posted, stopped]);
  }

  /** Every request sent has settled; a late answer that failed is dropped like one that came. */
  async idle(): Promise<void> {
    while (this.inFlight.size) await Promise.all([...this.inFlight]);
  }

  async notify(message: object): Promise<void> {
    try {
      await this.post(message, 'end', AbortSignal.timeout(END_TIMEOUT_MS));
    } catch {
      // The game is over whatever the bot says.
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.shut.abort('closed');
  }

  private async post(message: object, what: string, signal: AbortSignal): Promise<string> {
    let res: Response;
    try {
      res = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...message, session: this.session }),
        signal,
        // A bot answers at its own URL. Following a redirect would let an allowed host send the
        // worker's requests anywhere (the bots file allows hosts, not where they point).
        redirect: 'manual',
      });
    } catch (e) {
      if (signal.aborted) throw e;
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      throw new BotFault('crash', `could not POST ${what} to ${this.url} (${cause?.code ?? cause?.message ?? (e as Error).message}); is the bot server running?`);
    }
    if (res.status >= 300 && res.status < 400) {
      await res.body?.cancel().catch(() => undefined);
      throw new BotFault('crash', `answered ${what} with a redirect (HTTP ${res.status} to ${res.headers.get('location') ?? 'nowhere'}) from ${this.url}; redirects are not followed: seat the bot at the URL it answers on.`);
    }
    const text = await readCapped(res, what, this.url);
    if (!res.ok) throw new BotFault('crash', `answered ${what} with HTTP ${res.status} from ${this.url}: ${quote(text)}`);
    return text;
  }
}

/** The response body as text, refusing bodies over {@link MAX_ANSWER_BYTES}. */
async function readCapped(res: Response, what: string, url: string): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.length;
    if (bytes > MAX_ANSWER_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw new BotFault('illegal', `answered ${what} from ${url} with a body over ${MAX_ANSWER_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
