/**
 * The prompt catalogue (src/rules/prompts.ts) that bots are told of in docs/bot-protocol.md. The
 * compiler keeps the rules code from asking a prompt it does not list, and the conformance kit
 * checks it in play; this checks the other way: nothing listed that the rules code no longer asks.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { blitz } from '../src/index.ts';
import { DECISION_PROMPTS } from '../src/rules/prompts.ts';

const rulesDir = new URL('../src/rules/', import.meta.url);

describe('decision prompts', () => {
  it('every listed prompt is one the rules code asks, and the game offers the list', () => {
    const code = readdirSync(rulesDir)
      // sections.ts maps event types to sections; event types may share a prompt's name, so emits do not count either.
      .filter((f) => f.endsWith('.ts') && f !== 'prompts.ts' && f !== 'sections.ts')
      .map((f) => readFileSync(new URL(f, rulesDir), 'utf8').replace(/emit\(\w+, '[^']+'/g, ''))
      .join('\n');
    const unasked = Object.keys(DECISION_PROMPTS).filter((p) => !code.includes(`'${p}'`));
    expect(unasked, 'listed in prompts.ts but asked nowhere in src/rules: remove them from the list').toEqual([]);
    expect(blitz.prompts).toBe(DECISION_PROMPTS);
  });
});
