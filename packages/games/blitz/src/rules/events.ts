import type { GameEvent, JsonObject } from '@salient/engine';
import { landDef, unitDef, type PackIndex } from './pack-index.ts';

export type Events = GameEvent[];

export function emit(ev: Events, type: string, text: string, power?: string, data?: JsonObject): void {
  const e: GameEvent = { type, text };
  if (power !== undefined) e.power = power;
  if (data !== undefined) e.data = data;
  ev.push(e);
}

export const landName = (p: PackIndex, id: string) => (id.startsWith('sea:') ? (p.sea.get(id.slice(4))?.name ?? id) : landDef(p, id).name);
export const unitName = (p: PackIndex, id: string) => unitDef(p, id).name;
