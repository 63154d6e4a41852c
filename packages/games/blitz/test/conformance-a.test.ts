import { describe, it } from 'vitest';
import { conformanceShort } from './conformance.ts';

describe('Scenario A conformance', () => {
  it('passes on 200 seeds (500 in npm run test:conformance) and gives different games for different seeds', () => {
    conformanceShort('A');
  }, 120_000);
});
