// #/ : which side wins each scenario, and how each bot did.
import { api } from './api.js';
import { card, h, note, table } from './dom.js';
import { colour } from './colours.js';
import { intervalBars } from './charts.js';
import { filterBar } from './filters.js';
import { groupBy, int, interval, pct, scenarioDetail, scenarioKey, scenarioTitle, wilson } from './format.js';

export async function overview(params) {
  const [rates, bar] = await Promise.all([api('win-rates', params), filterBar('#/', params)]);
  const head = [h('h1', {}, 'Win rates by scenario and side'), bar];
  if (!rates.sides.length) {
    return [...head, card(null, note('No matches are recorded for these filters. Play a tournament first: ', h('code', {}, 'npm run salient -- tournament run examples/tournaments/blitz-smoke.yaml')))];
  }
  const scenarios = [...groupBy(rates.sides, scenarioKey).values()];
  const matches = scenarios.reduce((a, sides) => a + Math.max(...sides.map((s) => s.games)), 0);
  return [
    ...head,
    note(`${int(matches)} matches in ${scenarios.length} ${scenarios.length === 1 ? 'scenario' : 'scenarios'}. Bars are the share of its games a side won; whiskers, the 95% Wilson interval of that share; draws count as not won.`),
    h('div', { class: 'grid' }, scenarios.map(scenarioCard)),
    botResults(rates.bots),
  ];
}

function scenarioCard(sides) {
  const s0 = sides[0];
  const games = Math.max(...sides.map((s) => s.games));
  return card(
    h('span', {}, scenarioTitle(s0), h('span', { class: 'subtitle' }, ` · ${int(games)} ${games === 1 ? 'match' : 'matches'}`)),
    { 'data-testid': 'scenario-card', 'data-scenario': s0.scenario },
    h('p', { class: 'muted small' }, scenarioDetail(s0)),
    intervalBars(
      sides.map((s) => ({
        label: s.side,
        rate: s.winRate,
        low: s.interval.low,
        high: s.interval.high,
        colour: colour(s.side),
        text: `${pct(s.winRate)} · ${s.wins} of ${s.games}${s.draws ? `, ${s.draws} drawn` : ''}`,
        attrs: { 'data-scenario': s.scenario, 'data-side': s.side, 'data-games': s.games, 'data-wins': s.wins, 'data-losses': s.losses, 'data-draws': s.draws },
      })),
      { testid: 'winrate-bar', caption: `Win rate by side in ${scenarioTitle(s0)}` },
    ),
    table(
      [{ label: 'Side' }, { label: 'Won', num: true }, { label: 'Lost', num: true }, { label: 'Drawn', num: true }, { label: 'Games', num: true }, { label: 'Win rate', num: true }, { label: '95% interval', num: true }],
      sides.map((s) => [s.side, s.wins, s.losses, s.draws, s.games, pct(s.winRate), interval(s.interval)]),
      { class: 'compact' },
    ),
  );
}

/** Every scenario and side of a bot added up: a tally, not a rating (it does not net out side advantage). */
function botResults(rows) {
  const bots = new Map();
  for (const b of rows) {
    const t = bots.get(b.bot) ?? { bot: b.bot, games: 0, wins: 0, losses: 0, draws: 0, scenarios: new Set() };
    t.games += b.games;
    t.wins += b.wins;
    t.losses += b.losses;
    t.draws += b.draws;
    t.scenarios.add(b.scenario);
    bots.set(b.bot, t);
  }
  const sorted = [...bots.values()].map((b) => ({ ...b, score: (b.wins + b.draws / 2) / (b.games || 1), interval: wilson(b.wins, b.games) })).sort((a, b) => b.score - a.score || b.games - a.games);
  return card(
    'Bot results',
    { 'data-testid': 'bot-results' },
    note('Every scenario and side together. Score counts a draw as half a win. This is a tally, not a rating: it does not allow for the sides a bot happened to play.'),
    table(
      [{ label: 'Bot' }, { label: 'Scenarios' }, { label: 'Games', num: true }, { label: 'Won', num: true }, { label: 'Lost', num: true }, { label: 'Drawn', num: true }, { label: 'Score', num: true }, { label: 'Win rate', num: true }, { label: '95% interval', num: true, title: 'Wilson interval of the win rate' }],
      sorted.map((b) => ({ cells: [b.bot, [...b.scenarios].sort().join(', '), b.games, b.wins, b.losses, b.draws, pct(b.score), pct(b.wins / (b.games || 1)), interval(b.interval)], attrs: { 'data-bot': b.bot, 'data-games': b.games } })),
      { 'data-testid': 'bot-table' },
    ),
  );
}
