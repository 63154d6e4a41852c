// What each game's score and margin count (GET /api/games), so a chart names its measure as the game
// defines it: a Blitz! "score" is objectives and unit Size, not victory points.
import { api } from './api.js';

const UNEXPLAINED = { score: { name: 'score', description: '' }, margin: { name: 'margin', description: '' } };
let games;

/** The measures of `gameId` (a game that does not say gets plain "score" and "margin", unexplained). */
export async function measuresOf(gameId) {
  games ??= api('games').then(
    (r) => new Map(r.games.map((g) => [g.id, g.measures ?? UNEXPLAINED])),
    (e) => {
      games = undefined; // asked again on the next view, not stuck on one failure
      throw e;
    },
  );
  return (await games).get(gameId) ?? UNEXPLAINED;
}
