/**
 * docs/bot-protocol.md tells bot authors every game's prompts and observation fields. That section is
 * rendered from the games (scripts/bot-protocol-doc.ts): this fails when the committed doc differs
 * from what the games say now, and when a game's observations carry a field its type does not declare
 * (the type has an index signature, so the compiler would not notice).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RngStreams, type AnyGame, type Json, type LoadedPack } from '@salient/engine';
import { ENTRIES, bundledPack } from '@salient/catalog';
import { BEGIN, DOC, END, readGameTypes, renderGamesSection, withSection, type GameTypes } from '../scripts/bot-protocol-doc.ts';

let types: GameTypes[] | undefined;
const gameTypes = (): GameTypes[] => (types ??= readGameTypes());

/** Top-level keys of every observation a power is given over random playouts of `scenario`. */
function observedKeys(game: AnyGame, pack: LoadedPack, scenario: string, seed: number, options = {}): Set<string> {
  const keys = new Set<string>();
  const rng = new RngStreams(seed);
  const pick = rng.get('doc-test');
  let state: Json = game.setup(scenario, pack, options);
  for (let step = 0; step < 200_000; step++) {
    const p = game.pending(state);
    if (p.kind === 'terminal') break;
    let choice: unknown;
    if (p.kind === 'decision') {
      for (const k of Object.keys(game.observe(state, p.power) as object)) keys.add(k);
      choice = pick.pick(p.options);
    } else choice = rng.get(p.stream).sample(p.outcomes);
    state = (game.applyOwned ?? game.apply).call(game, state, choice).state as Json;
  }
  return keys;
}

describe('docs/bot-protocol.md: the games reference', () => {
  it('is what the games say now (regenerate it with npm run docs:bot-protocol)', () => {
    const doc = readFileSync(DOC, 'utf8');
    expect(doc).toContain(BEGIN);
    expect(doc).toContain(END);
    const fresh = withSection(doc, renderGamesSection(gameTypes()));
    // Compared line by line, so a failure shows where the doc and the games part.
    expect(doc.split('\n'), 'docs/bot-protocol.md is out of date with the games: run npm run docs:bot-protocol and commit it').toEqual(fresh.split('\n'));
  }, 60_000);

  it('lists every game of the catalog, its prompts and the fields of its observation', () => {
    const section = renderGamesSection(gameTypes());
    for (const [i, { game }] of ENTRIES.entries()) {
      expect(section).toContain(`### \`${game.id}\`: ${game.name}`);
      for (const prompt of Object.keys(game.prompts ?? {})) expect(section).toContain(`| \`${prompt}\` |`);
      expect(gameTypes()[i]?.fields.length).toBeGreaterThan(0);
    }
    // A game without prompts cannot be documented, so it is refused rather than left out.
    const bare = ENTRIES.map((e, i): AnyGame => (i === 0 ? { ...e.game, prompts: {} } : e.game));
    expect(() => renderGamesSection(gameTypes(), bare)).toThrow(/lists no prompts: give it Game.prompts/);
  }, 60_000);

  it('declares every field the observations of random games hold', () => {
    const runs: [string, string, object][] = [
      ['dice-race', 'standard', {}],
      ...['A', 'B', 'C', 'D', 'E', 'F'].map((s): [string, string, object] => ['blitz', s, {}]),
      ['blitz', 'full', { optional: '9.1,9.2,9.3,9.4,9.5,9.6,9.7,9.8,9.9' }],
    ];
    for (const [id, scenario, options] of runs) {
      const i = ENTRIES.findIndex((e) => e.game.id === id);
      const entry = ENTRIES[i];
      if (!entry) continue;
      const pack = bundledPack(entry.game, Object.keys(entry.game.bundledPacks)[0]!);
      const declared = new Set(gameTypes()[i]!.fields.map((f) => f.name));
      const undeclared = [...observedKeys(entry.game, pack, scenario, 1, options)].filter((k) => !declared.has(k));
      expect(undeclared, `${id} ${scenario}: observation fields its type does not declare`).toEqual([]);
    }
  }, 120_000);
});
