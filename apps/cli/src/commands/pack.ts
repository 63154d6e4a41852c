/** `salient pack`: validate a pack directory, show or export a bundled pack. */
import type { Command } from 'commander';
import { unknownName, type AnyGame } from '@salient/engine';
import { EXIT } from '../errors.ts';
import { say, table } from '../output.ts';
import { checkPackDir, declaredGame, readPackDir, writePackDir } from '../pack-files.ts';
// The lazy catalog: validating a Blitz pack imports no other game.
import { bundledPack, bundledPackIds, loadGame } from '@salient/catalog/lazy';
import { commandDescription } from './summaries.ts';

function bundledId(game: AnyGame, id: string): string {
  if (!bundledPackIds(game).includes(id)) throw unknownName('UNKNOWN_PACK', 'pack', id, bundledPackIds(game));
  return id;
}

export function registerPack(program: Command): void {
  const pack = program.command('pack').description(commandDescription('pack'));

  pack
    .command('validate')
    .description('Check every JSON file of a pack directory against the game\'s pack schema; exit 1 if anything is wrong.')
    .argument('<dir>', 'pack directory: one JSON file per component (map.json, units.json, ...)')
    .option('-g, --game <id>', 'game whose schema applies (default: the `game` field of pack.json, else the default game)')
    .action(async (dir: string, f: { game?: string }) => {
      const game = await loadGame(f.game ?? declaredGame(readPackDir(dir)));
      const r = checkPackDir(game, dir);
      if (!r.ok) {
        for (const l of r.lines) say(l);
        say();
        say(`${dir}: ${r.lines.length} problem${r.lines.length === 1 ? '' : 's'} in a ${game.id} pack of ${r.files.length} file${r.files.length === 1 ? '' : 's'}.`);
        process.exitCode = EXIT.bug;
        return;
      }
      const i = r.pack.info;
      const scenarios = game.scenarios(r.pack);
      say(`${dir}: valid ${game.id} pack.`);
      say(`  id ${i.id}, version ${i.version}, fidelity ${i.fidelity}, hash ${i.hash}`);
      say(`  ${i.description}`);
      say(`  ${r.files.length} file${r.files.length === 1 ? '' : 's'} (${r.files.join(', ')}); ${scenarios.length} scenario${scenarios.length === 1 ? '' : 's'} (${scenarios.map((s) => s.id).join(', ')}).`);
    });

  pack
    .command('show')
    .description('Show a bundled pack: provenance, files and scenarios.')
    .argument('<id>', 'bundled pack id (see `salient games`)')
    .option('-g, --game <id>', 'game (default: the default game)')
    .action(async (id: string, f: { game?: string }) => {
      const game = await loadGame(f.game);
      const p = bundledPack(game, bundledId(game, id));
      const raw = game.bundledPacks[id];
      const i = p.info;
      say(`${game.id} pack ${i.id}@${i.version} (${i.fidelity}), hash ${i.hash}`);
      say(i.description);
      if (typeof raw === 'object' && raw !== null) say(`Files: ${Object.keys(raw).map((k) => `${k}.json`).join(', ')}`);
      say(
        table(
          ['scenario', 'name', 'sides', 'summary'],
          game.scenarios(p).map((s) => [s.id, s.name, s.sides.map((x) => `${x.id}: ${x.powers.join(', ')}`).join('\n'), s.summary]),
          [null, 20, null, 60],
        ),
      );
    });

  pack
    .command('export')
    .description('Write a bundled pack as a directory of JSON files, to edit and validate.')
    .argument('<id>', 'bundled pack id')
    .argument('<dir>', 'new (or empty) directory')
    .option('-g, --game <id>', 'game (default: the default game)')
    .action(async (id: string, dir: string, f: { game?: string }) => {
      const game = await loadGame(f.game);
      const files = writePackDir(game.bundledPacks[bundledId(game, id)], dir);
      say(`Wrote ${files.length} files to ${dir}: ${files.join(', ')}.`);
    });
}
