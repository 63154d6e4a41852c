/** Domain events for logs and telemetry: a stable type, the side it concerns, a readable line. */
import type { GameEvent, JsonObject } from '@salient/engine';

export type Events = GameEvent[];

export function emit(ev: Events, type: string, power: string | undefined, text: string, data?: JsonObject): void {
  ev.push({ type, ...(power ? { power } : {}), text, ...(data ? { data } : {}) });
}
