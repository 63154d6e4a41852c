/** Domain events for logs and telemetry: a stable type, the side it concerns, a readable line. */
import type { GameEvent, JsonObject } from '@salient/engine';

export type Events = GameEvent[];

export function emit(ev: Events, type: string, power: string | undefined, text: string, data?: JsonObject): void {
  // Same keys in the same order as spreading the optional parts, without the temporary objects.
  ev.push(power ? (data ? { type, power, text, data } : { type, power, text }) : data ? { type, text, data } : { type, text });
}
