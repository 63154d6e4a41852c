/**
 * A game thread of the local pool: plays the matches the main thread hands it, one at a time and in
 * the order given, through `playPlanned`, its rows going to the main thread's store through a
 * `RemoteSink`. Run as the bundled JavaScript `bundleEntry` makes of it (see `../bundle.ts`).
 */
import { parentPort, threadId, workerData } from 'node:worker_threads';
import { RemoteSink, type RemoteSinkOptions } from '@salient/telemetry';
import { watchBotProcesses, type ExternalBots } from '@salient/bots';
import { playPlanned } from '../play.ts';
import type { PlannedMatch } from '../types.ts';
import type { ToPool, ToThread } from './protocol.ts';

interface ThreadData {
  salientPoolThread: { telemetry: boolean; sinkOptions?: RemoteSinkOptions; worker: string; bots?: ExternalBots };
}

async function main(): Promise<void> {
  const port = parentPort;
  const data = (workerData as ThreadData | undefined)?.salientPoolThread;
  if (!port || !data) return;
  const sink = data.telemetry ? new RemoteSink(port, data.sinkOptions ?? {}) : undefined;
  const worker = `${data.worker}#${threadId}`;
  const send = (m: ToPool) => port.postMessage(m);
  // A terminated thread runs no exit hook: the pool kills the bot processes it still had running.
  watchBotProcesses((pid, alive) => send({ pool: 'bot-process', pid, alive }));
  const waiting: { match: PlannedMatch; die: boolean }[] = [];
  let running: AbortController | undefined;

  const playNext = async (): Promise<void> => {
    const next = waiting.shift();
    if (!next) return;
    if (next.die) process.exit(3);
    running = new AbortController();
    try {
      const { outcome } = await playPlanned(next.match, { worker, signal: running.signal, ...(sink ? { sink } : {}), ...(data.bots ? { bots: data.bots } : {}) });
      // The match row goes out at the sink's next flush (the runner flushed already at the end).
      await sink?.flush();
      send({ pool: 'done', outcome });
    } catch (e) {
      send({ pool: 'failed', matchId: next.match.id, error: e instanceof Error ? e.message : String(e) });
    } finally {
      running = undefined;
    }
    if (waiting.length) await playNext();
  };

  port.on('message', (v: unknown) => {
    const m = v as ToThread;
    if (!m || typeof m !== 'object' || !('pool' in m)) return;
    if (m.pool === 'play') {
      waiting.push({ match: m.match, die: m.die === true });
      if (!running && waiting.length === 1) void playNext();
    } else if (m.pool === 'abort') {
      for (const w of waiting.splice(0)) send({ pool: 'dropped', matchId: w.match.id });
      running?.abort();
    } else if (m.pool === 'drop') {
      for (const w of waiting.splice(0)) send({ pool: 'dropped', matchId: w.match.id });
    } else if (m.pool === 'close') {
      void (async () => {
        try {
          await sink?.close();
          send({ pool: 'closed' });
        } catch (e) {
          send({ pool: 'closed', error: e instanceof Error ? e.message : String(e) });
        }
      })();
    }
  });
  send({ pool: 'ready' });
}

await main();
