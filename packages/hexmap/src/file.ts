/**
 * Reading a map file from disk: the one place this package touches the file system, kept out of the
 * core (imported as `@salient/hexmap/file`).
 */
import { readFileSync } from 'node:fs';
import { parseJsonText, SalientError } from '@salient/engine';
import { loadHexMap, type HexMap } from './map.ts';

/** Read, parse and load a "salient.hexmap/1" file; every problem is a SalientError naming the file. */
export function loadHexMapFile(path: string): HexMap {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new SalientError('IO', `Cannot read the map file ${path}: ${(e as Error).message}`);
  }
  return loadHexMap(parseJsonText(text, path, 'BAD_PACK'), { source: path });
}
