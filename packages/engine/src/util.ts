import type { Pending, PendingDecision } from './contract.ts';
import { IllegalChoiceError } from './errors.ts';

/** The pending decision, or throw if the game is at a chance node or over. */
export function legal<C>(p: Pending<C>): PendingDecision<C> {
  if (p.kind !== 'decision') throw new IllegalChoiceError(`no decision is pending (the game is at a ${p.kind} node)`);
  return p;
}

/** Find `choice` among `options` by encoded text; throws `IllegalChoiceError` naming the prompt. */
export function choose<C>(options: readonly C[], choice: C, encode: (c: C) => string, prompt: string): C {
  const want = encode(choice);
  const hit = options.find((o) => encode(o) === want);
  if (hit === undefined) {
    const shown = options.slice(0, 8).map(encode).join(', ');
    throw new IllegalChoiceError(`'${want}' is not a legal option for ${prompt}; legal: ${shown}${options.length > 8 ? ', ...' : ''}`);
  }
  return hit;
}
