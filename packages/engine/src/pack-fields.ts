/**
 * Schema pieces every game's data-pack schema shares: the fidelity a pack declares, and the provenance
 * fields any object may carry (`refs` to the rulebook sections that state its facts, `estimates`
 * saying why each estimated value was chosen).
 */
import { z } from 'zod';
import type { Fidelity } from './contract.ts';

/** The fidelity a pack declares (see {@link Fidelity}). */
export const fidelitySchema = z.enum(['official', 'approximation', 'synthetic']) satisfies z.ZodType<Fidelity>;

/** `refs` and `estimates`, to spread into an object schema; `example` shows the game's section numbering. */
export function provenanceFields(example: string) {
  return {
    refs: z.array(z.string()).optional().describe(`rulebook sections stating these facts, e.g. ${example}`),
    estimates: z
      .record(z.string(), z.string().min(10, 'give the reasoning for the estimate'))
      .optional()
      .describe('field -> why this value was estimated'),
  };
}
