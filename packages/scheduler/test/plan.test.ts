import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadTournamentSpec, pairingsOf, parseTournamentSpec, planTournament, type PlannedMatch, type TournamentPlan } from '../src/index.ts';

const EXAMPLES = fileURLToPath(new URL('../../../examples/tournaments/', import.meta.url));

async function plan(text: string): Promise<TournamentPlan> {
  return planTournament(await parseTournamentSpec(text, 'test.yaml'));
}

const THREE = `
scenarios: [A, B]
entrants:
  - random
  - greedy
  - { name: g0, bot: greedy, params: { chance: 0 } }
`;

/** Entrant names of a match as an unordered key. */
const pairKey = (m: PlannedMatch) => Object.values(m.entrants).sort().join(' v ');

describe('planTournament: counts per format', () => {
  it('round robin: every pair of entrants, on every scenario, gamesPerPairing games each', async () => {
    const p = await plan(`${THREE}gamesPerPairing: 4\n`);
    // 3 pairs x 2 scenarios x 4 games.
    expect(p.matches).toHaveLength(24);
    expect(pairingsOf(p.spec)).toEqual([
      ['random', 'greedy'],
      ['random', 'g0'],
      ['greedy', 'g0'],
    ]);
    const per = new Map<string, number>();
    for (const m of p.matches) per.set(`${m.scenario} ${pairKey(m)}`, (per.get(`${m.scenario} ${pairKey(m)}`) ?? 0) + 1);
    expect([...per.values()]).toEqual([4, 4, 4, 4, 4, 4]);
  });

  it('gauntlet: every other entrant plays the reference, and no one else', async () => {
    const p = await plan(`${THREE}  - { name: r2, bot: random }\nformat: gauntlet\nreference: g0\nscenarios: [A]\n`.replace('scenarios: [A, B]\n', ''));
    // 3 challengers x 1 scenario x 2 games.
    expect(p.matches).toHaveLength(6);
    for (const m of p.matches) expect(Object.values(m.entrants)).toContain('g0');
    expect(new Set(p.matches.map(pairKey))).toEqual(new Set(['g0 v random', 'g0 v greedy', 'g0 v r2']));
  });

  it('pairings: exactly the pairs listed', async () => {
    const p = await plan(`${THREE}format: pairings\npairings: [[g0, random], [greedy, g0]]\ngamesPerPairing: 2\n`);
    // 2 pairings x 2 scenarios x 2 games.
    expect(p.matches).toHaveLength(8);
    expect(new Set(p.matches.map(pairKey))).toEqual(new Set(['g0 v random', 'g0 v greedy']));
  });

  it('without side swap: one game per seed, sides alternating from seed to seed', async () => {
    const p = await plan(`scenarios: [A]\nentrants: [random, greedy]\nsideSwap: false\ngamesPerPairing: 3\nbaseSeed: 7\n`);
    expect(p.matches.map((m) => [m.seed, m.entrants['Axis'], m.pairId === m.id])).toEqual([
      [7, 'random', true],
      [8, 'greedy', true],
      [9, 'random', true],
    ]);
  });
});

describe('planTournament: order, pairs and seeds', () => {
  it('orders by seed round, then scenario, then pairing, with both games of a pair adjacent', async () => {
    const p = await plan(`${THREE}gamesPerPairing: 4\nbaseSeed: 100\n`);
    expect(p.matches.map((m) => m.index)).toEqual(p.matches.map((_, i) => i));
    // 2 seeds; per seed round: 2 scenarios x 3 pairings x 2 games = 12 matches.
    expect(p.matches.map((m) => m.seed)).toEqual([...Array<number>(12).fill(100), ...Array<number>(12).fill(101)]);
    expect(p.matches.slice(0, 12).map((m) => m.scenario)).toEqual([...Array<string>(6).fill('A'), ...Array<string>(6).fill('B')]);
    expect(p.matches.slice(0, 6).map(pairKey)).toEqual(['greedy v random', 'greedy v random', 'g0 v random', 'g0 v random', 'g0 v greedy', 'g0 v greedy']);
  });

  it('side-swapped pairs share seed, scenario and pair id and exchange seats; pair ids differ between pairs', async () => {
    const p = await plan(`${THREE}gamesPerPairing: 4\n`);
    const pairIds = new Set<string>();
    for (let i = 0; i < p.matches.length; i += 2) {
      const a = p.matches[i] as PlannedMatch;
      const b = p.matches[i + 1] as PlannedMatch;
      expect(b.pairId).toBe(a.pairId);
      expect(a.id).not.toBe(b.id);
      expect([b.seed, b.scenario]).toEqual([a.seed, a.scenario]);
      expect(b.entrants).toEqual({ Axis: a.entrants['Allies'], Allies: a.entrants['Axis'] });
      expect(b.seats).toEqual({ Axis: a.seats['Allies'], Allies: a.seats['Axis'] });
      pairIds.add(a.pairId);
    }
    expect(pairIds.size).toBe(p.matches.length / 2);
    expect(new Set(p.matches.map((m) => m.id)).size).toBe(p.matches.length);
  });

  it('every pairing plays the same seeds on every scenario', async () => {
    const p = await plan(`${THREE}seeds: [42, 7, 1000]\n`);
    const seeds = new Map<string, number[]>();
    for (const m of p.matches) seeds.set(`${m.scenario} ${pairKey(m)}`, [...(seeds.get(`${m.scenario} ${pairKey(m)}`) ?? []), m.seed]);
    for (const list of seeds.values()) expect(list).toEqual([42, 42, 7, 7, 1000, 1000]);
  });

  it('carries what a worker needs: game, resolved pack, seats as bot specs, caps', async () => {
    const p = await plan(`${THREE}decisionCap: 300\ndecisionTimeoutMs: 2500\n`);
    const g0 = p.matches.find((m) => m.entrants['Axis'] === 'g0') as PlannedMatch;
    expect(g0).toMatchObject({ tournamentId: p.tournamentId, game: 'blitz', pack: 'approximation', decisionCap: 300, decisionTimeoutMs: 2500 });
    expect(g0.seats['Axis']).toBe('greedy:chance=0');
    expect(g0).not.toHaveProperty('options');
    expect(p.tournamentId).toBe(p.spec.id);
    expect(p.spec.id).toBe(`t-${p.specHash}`);
  });
});

describe('planTournament: determinism', () => {
  it('gives the same plan for the same spec, however it is written', async () => {
    const a = await plan(`${THREE}gamesPerPairing: 4\n`);
    const b = await plan(`${THREE}gamesPerPairing: 4\n`);
    expect(b).toEqual(a);
    const reordered = await plan(`gamesPerPairing: 4
sideSwap: true
baseSeed: 1
entrants:
  - { bot: random }
  - greedy
  - { params: { chance: false }, bot: greedy, name: g0 }
format: round-robin
scenarios: [A, B]
stop: fixed
`);
    expect(reordered).toEqual(a);
    // Planning the normalized spec again changes nothing.
    expect(await planTournament(JSON.parse(JSON.stringify(a.spec)))).toEqual(a);
  });

  it('changes the tournament id and every match id when anything that decides play changes', async () => {
    const base = `${THREE}gamesPerPairing: 4\n`;
    const a = await plan(base);
    const variants = [
      base.replace('chance: 0', 'chance: 1'),
      base.replace('gamesPerPairing: 4', 'gamesPerPairing: 4\nbaseSeed: 2'),
      base.replace('[A, B]', '[B, A]'),
      `${base}decisionCap: 1000\n`,
      `${base}decisionTimeoutMs: 1000\n`,
      base.replace('name: g0', 'name: g-zero'),
    ];
    const ids = new Set(a.matches.map((m) => m.id));
    for (const v of variants) {
      const b = await plan(v);
      expect(b.tournamentId).not.toBe(a.tournamentId);
      expect(b.specHash).not.toBe(a.specHash);
      for (const m of b.matches) expect(ids.has(m.id)).toBe(false);
    }
    // A name is not part of play.
    const named = await plan(`${base}name: Friday night\n`);
    expect(named.tournamentId).toBe(a.tournamentId);
  });

  it('with a fixed id, growing the tournament keeps the ids of the matches already planned', async () => {
    const small = await plan(`id: weekly\n${THREE}gamesPerPairing: 2\n`);
    const grown = await plan(`id: weekly\n${THREE}gamesPerPairing: 6\n`);
    expect(small.tournamentId).toBe('weekly');
    expect(grown.specHash).not.toBe(small.specHash);
    const grownIds = new Set(grown.matches.map((m) => m.id));
    for (const m of small.matches) expect(grownIds.has(m.id)).toBe(true);
    // But a change in how matches are played gives new ids even under the same tournament id.
    const capped = await plan(`id: weekly\n${THREE}gamesPerPairing: 2\ndecisionCap: 50\n`);
    for (const m of capped.matches) expect(small.matches.some((x) => x.id === m.id)).toBe(false);
  });
});

describe('examples/tournaments', () => {
  const files = readdirSync(EXAMPLES).filter((f) => /\.(ya?ml|json)$/.test(f));

  it('holds the smoke and gauntlet examples', () => {
    expect(files).toEqual(expect.arrayContaining(['blitz-smoke.yaml', 'blitz-gauntlet.yaml']));
  });

  for (const f of files) {
    it(`${f} parses and plans`, async () => {
      const p = await planTournament(await loadTournamentSpec(join(EXAMPLES, f)));
      expect(p.matches.length).toBeGreaterThan(0);
      expect(new Set(p.matches.map((m) => m.id)).size).toBe(p.matches.length);
    });
  }

  it('blitz-smoke: random v greedy on A and B, 4 games each, side-swapped', async () => {
    const p = await planTournament(await loadTournamentSpec(join(EXAMPLES, 'blitz-smoke.yaml')));
    // 1 pairing x 2 scenarios x 4 games.
    expect(p.matches).toHaveLength(8);
    expect(p.spec.sideSwap).toBe(true);
    expect(new Set(p.matches.map((m) => m.scenario))).toEqual(new Set(['A', 'B']));
  });

  it('blitz-gauntlet: two challengers against greedy, 3 seeds from both sides', async () => {
    const p = await planTournament(await loadTournamentSpec(join(EXAMPLES, 'blitz-gauntlet.yaml')));
    // 2 pairings x 1 scenario x 3 seeds x 2 sides.
    expect(p.matches).toHaveLength(12);
    expect(p.spec.format).toBe('gauntlet');
  });

  it('blitz-strength: mcts against random and greedy, 200 side-swapped games per pairing on A and B', async () => {
    const p = await planTournament(await loadTournamentSpec(join(EXAMPLES, 'blitz-strength.yaml')));
    // 2 pairings x 2 scenarios x 100 seeds x 2 sides.
    expect(p.matches).toHaveLength(800);
    expect(p.spec.entrants.find((e) => e.name === 'mcts')?.bot).toBe('mcts:iterations=300,rollout=0');
    for (const opponent of ['random', 'greedy']) {
      for (const scenario of ['A', 'B']) {
        const games = p.matches.filter((m) => m.scenario === scenario && Object.values(m.entrants).includes(opponent));
        expect(games).toHaveLength(200);
        // Every seed is played once with mcts on each side.
        for (const side of ['Axis', 'Allies']) expect(games.filter((m) => m.entrants[side] === 'mcts')).toHaveLength(100);
      }
    }
  });
});
