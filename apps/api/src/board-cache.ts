/**
 * Boards as the API sends them, kept once drawn. A board is the replay re-run with the map taken at
 * every step (board.ts): a second or more for a long game, and a megabyte of JSON. A stored match's log
 * does not change, so its board only changes with this server's code: the cache is in memory (a restart
 * empties it) and keyed by the match and its recorded final hash, so a match stored again under the
 * same id with another log is drawn afresh. Bounded in bytes (least recently read boards go first);
 * requests for a board being drawn wait for that drawing rather than starting another. Each board has
 * an ETag (a hash of its JSON), so a browser that has it gets a 304 instead of the megabyte again.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { LRUCache } from 'lru-cache';
import type { Replay } from '@salient/engine';
import type { Telemetry } from '@salient/telemetry';
import { boardOfReplay } from './board.ts';

/** A board ready to send: its JSON text, the same gzipped, and the ETag of the text. */
export interface SentBoard {
  body: string;
  gzip: Buffer;
  etag: string;
}

/** Default bound of the board cache: 64 MiB of JSON (about fifty long games). */
export const BOARD_CACHE_BYTES = 64 * 1024 * 1024;

const gzipped = promisify(gzip);
const sent = async (body: string): Promise<SentBoard> => ({ body, gzip: await gzipped(body), etag: `"b-${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` });

/**
 * `board(matchId)`: the match's board as JSON text with its ETag, or undefined when no such match is
 * stored. `maxBytes` 0 keeps nothing (every request re-runs the replay).
 */
export function boardCache(telemetry: Telemetry, maxBytes = BOARD_CACHE_BYTES, onLookup?: (result: BoardLookup) => void): BoardCache {
  const draw = async (matchId: string, replay: Replay) => sent(JSON.stringify(await boardOfReplay(matchId, replay)));
  if (!(maxBytes > 0)) {
    return {
      board: async (matchId) => {
        const replay = await telemetry.replay(matchId);
        if (!replay) return undefined;
        onLookup?.('drawn');
        return draw(matchId, replay);
      },
      bytes: () => 0,
    };
  }
  const cache = new LRUCache<string, SentBoard, Ctx>({
    maxSize: maxBytes,
    sizeCalculation: (b) => Math.max(1, b.body.length + b.gzip.length),
    // A failed drawing is not kept: the error goes to every request that waited for it. A replay gone
    // since the match was looked up is no board (undefined is not kept either).
    fetchMethod: async (_key, _stale, { context }) => {
      const replay = context.replay ?? (await telemetry.replay(context.matchId));
      return replay && draw(context.matchId, replay);
    },
  });
  return {
    board: async (matchId) => {
      // The key needs only the final hash (a point read of that one column of the match's summary; the
      // whole summary cost the 18.16 server several times as much): the replay, the large part, is read
      // only to draw the board.
      const hash = await telemetry.finalHash(matchId);
      const replay = hash === undefined ? await telemetry.replay(matchId) : undefined;
      const finalHash = hash ?? replay?.finalHash;
      if (finalHash === undefined) return undefined;
      const status: LRUCache.Status<string, SentBoard, Ctx> = {};
      const board = await cache.fetch(`${matchId}\n${finalHash}`, { context: { matchId, ...(replay ? { replay } : {}) }, status });
      if (!board) return undefined;
      // hit: kept; inflight: another request's drawing, waited for; anything else drew it for this one.
      onLookup?.(status.fetch === 'hit' ? 'kept' : status.fetch === 'inflight' ? 'waited' : 'drawn');
      return board;
    },
    bytes: () => cache.calculatedSize,
  };
}

/** How a board request was answered: from the cache, by waiting for a drawing under way, or by drawing it. */
export type BoardLookup = 'kept' | 'waited' | 'drawn';

export interface BoardCache {
  /** The match's board as JSON text with its ETag; undefined when no such match is stored. */
  board: (matchId: string) => Promise<SentBoard | undefined>;
  /** Bytes of JSON kept now. */
  bytes: () => number;
}

interface Ctx {
  matchId: string;
  /** The replay when it was read already (a match without a summary); else the drawing reads it. */
  replay?: Replay;
}
