import { describe, it } from 'vitest';
import { conformance } from './conformance.ts';

const full = process.env.SALIENT_CONFORMANCE === 'full';

describe('Scenario 3 (1918) conformance, seeds 101-150 (501-1000 in the full run)', () => {
  it('passes the kit and gives different games for different seeds', () => {
    conformance(full ? 501 : 101, full ? 500 : 50, full ? 20 : 5);
  }, 600_000);
});
