/**
 * A game thread of the local pool: plays the matches the main thread hands it, one at a time, through
 * `playPlanned`, its rows going to the main thread's store through a `RemoteSink`. Loaded through tsx
 * from an eval'd entry (see `local-pool.ts`), so it needs no build step.
 */
import { parentPort, threadId, workerData } from 'node:worker_threads';
import { RemoteSink, type RemoteSinkOptions } from '@salient/telemetry';
import { playPlanned } from '../play.ts';
import type { ToPool, ToThread } from './protocol.ts';

interface ThreadData {
  salientPoolThread: { telemetry: boolean; sinkOptions?: RemoteSinkOptions; worker: string };
}

async function main(): Promise<void> {
  const port = parentPort;
  const data = (workerData as ThreadData | undefined)?.salientPoolThread;
  if (!port || !data) return;
  const sink = data.telemetry ? new RemoteSink(port, data.sinkOptions ?? {}) : undefined;
  const worker = `${data.worker}#${threadId}`;
  let running: AbortController | undefined;
  const send = (m: ToPool) => port.postMessage(m);
  port.on('message', (v: unknown) => {
    const m = v as ToThread;
    if (!m || typeof m !== 'object' || !('pool' in m)) return;
    if (m.pool === 'die') process.exit(3);
    else if (m.pool === 'abort') running?.abort();
    else if (m.pool === 'close') {
      void (async () => {
        try {
          await sink?.close();
          send({ pool: 'closed' });
        } catch (e) {
          send({ pool: 'closed', error: e instanceof Error ? e.message : String(e) });
        }
      })();
    } else if (m.pool === 'play') {
      running = new AbortController();
      const signal = running.signal;
      void (async () => {
        try {
          const { outcome } = await playPlanned(m.match, { worker, signal, ...(sink ? { sink } : {}) });
          // The match row is posted at the sink's next flush (the runner flushed already at the end).
          await sink?.flush();
          send({ pool: 'done', outcome });
        } catch (e) {
          send({ pool: 'failed', matchId: m.match.id, error: e instanceof Error ? e.message : String(e) });
        } finally {
          running = undefined;
        }
      })();
    }
  });
  send({ pool: 'ready' });
}

await main();
