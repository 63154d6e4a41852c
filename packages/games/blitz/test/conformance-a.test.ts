import { describe, it } from 'vitest';
import { conformanceShort } from './conformance.ts';

describe('Scenario A conformance', () => {
  it('passes on 200 seeds (500 in npm run test:conformance) and gives different games for different seeds', () => {
    conformanceShort('A');
  }, 600_000); // about 40 s alone; over 200 s on a machine at load 14
});
