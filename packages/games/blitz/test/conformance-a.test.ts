import { describe, it } from 'vitest';
import { conformance500 } from './conformance.ts';

describe('Scenario A conformance', () => {
  it('passes on 500 seeds and gives different games for different seeds', () => {
    conformance500('A');
  }, 120_000);
});
