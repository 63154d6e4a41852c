/** `salient games`: what can be played: games, scenarios, bundled packs, bots. */
import type { Command } from 'commander';
import { botCatalog } from '@salient/bots';
import { say, table } from '../output.ts';
import { bundledPack, bundledPackIds, loadGames } from '@salient/catalog/lazy';
import { commandDescription } from './summaries.ts';

export function registerGames(program: Command): void {
  program
    .command('games')
    .description(commandDescription('games'))
    .option('-a, --all', 'include test games')
    .action(async (f: { all?: boolean }) => {
      const games = await loadGames(Boolean(f.all));
      const gameRows: string[][] = [];
      const scenarioRows: string[][] = [];
      const packRows: string[][] = [];
      for (const g of games) {
        const ids = bundledPackIds(g);
        gameRows.push([g.id, g.name, g.rulesVersion, ids[0] ?? '(none)']);
        ids.forEach((id, i) => {
          const pack = bundledPack(g, id);
          packRows.push([g.id, id, pack.info.version, pack.info.fidelity, pack.info.hash, pack.info.description]);
          // Scenarios come from the default pack; other packs may offer others (`salient pack show`).
          if (i > 0) return;
          for (const s of g.scenarios(pack)) {
            scenarioRows.push([g.id, s.id, s.name, s.sides.map((side) => `${side.id}: ${side.powers.join(', ')}`).join('\n')]);
          }
        });
      }
      say('Games');
      say(table(['game', 'name', 'rules', 'default pack'], gameRows));
      say('Scenarios (sides: powers)');
      say(table(['game', 'scenario', 'name', 'sides'], scenarioRows));
      say('Bundled data packs');
      say(table(['game', 'pack', 'version', 'fidelity', 'hash', 'description'], packRows, [null, null, null, null, null, 60]));
      say('Bots (seat spec: name or name:key=value,...)');
      const bots = botCatalog().map((b) => [
        b.name,
        b.version,
        b.summary,
        Object.entries(b.params)
          .map(([k, v]) => `${k}: ${v}`)
          .join('\n') || '-',
      ]);
      say(table(['bot', 'version', 'summary', 'parameters'], bots, [null, null, 50, 50]));
      if (!f.all) say('Test games are hidden; `salient games --all` lists them.');
    });
}
