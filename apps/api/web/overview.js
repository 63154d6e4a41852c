// #/ : which side wins each scenario, and how each bot did.
import { api } from './api.js';
import { card, h, note, table } from './dom.js';
import { colour } from './colours.js';
import { intervalBars } from './charts.js';
import { filterBar } from './filters.js';
import { sweepSection } from './sweep.js';
import { groupBy, int, interval, pct, scenarioDetail, scenarioKey, scenarioTitle } from './format.js';

export async function overview(params) {
  const [rates, ratings, bar, sweeps] = await Promise.all([api('win-rates', params), api('ratings', params), filterBar('#/', params), sweepSection(params)]);
  const head = [h('h1', {}, 'Win rates by scenario and side'), bar];
  if (!rates.sides.length) {
    return [...head, card(null, note('No matches are recorded for these filters. Play a tournament first: ', h('code', {}, 'npm run salient -- tournament run examples/tournaments/blitz-smoke.yaml')))];
  }
  const scenarios = [...groupBy(rates.sides, scenarioKey).values()];
  const matches = scenarios.reduce((a, sides) => a + Math.max(...sides.map((s) => s.games)), 0);
  return [
    ...head,
    note(`${int(matches)} matches in ${scenarios.length} ${scenarios.length === 1 ? 'scenario' : 'scenarios'}. Bars are the share of its games a side won; whiskers, the 95% Wilson interval of that share; draws count as not won.`),
    h('div', { class: 'grid' }, scenarios.map((sides) => scenarioCard(sides, ratings))),
    sweeps,
    botRatings(rates.bots, ratings),
  ];
}

function scenarioCard(sides, ratings) {
  const s0 = sides[0];
  const even = (ratings.bradleyTerry?.sides ?? []).filter((x) => scenarioKey(x) === scenarioKey(s0));
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
    even.length
      ? h(
          'p',
          { class: 'small', 'data-testid': 'even-bots' },
          h('strong', {}, 'Between equal bots: '),
          even.map((x, i) => [i ? ' · ' : '', h('span', { 'data-side': x.side, 'data-p': x.winProbabilityEven }, `${x.side} ${pct(x.winProbabilityEven)} (${interval(x.interval)})`)]),
          h('span', { class: 'muted' }, ' — each side’s win probability net of bot strength (Bradley–Terry, draws as half).'),
        )
      : null,
  );
}

const signed = (x) => {
  const r = Math.round(x);
  return r === 0 ? '0' : `${r > 0 ? '+' : '−'}${Math.abs(r)}`;
};

/**
 * Bot ratings: Bradley–Terry strength net of the sides each bot happened to play (Elo, relative to the
 * average bot, with its 95% interval), openskill beside it, and each bot's tally of results.
 */
function botRatings(rows, ratings) {
  const tally = new Map();
  for (const b of rows) {
    const t = tally.get(b.bot) ?? { games: 0, wins: 0, losses: 0, draws: 0, scenarios: new Set() };
    t.games += b.games;
    t.wins += b.wins;
    t.losses += b.losses;
    t.draws += b.draws;
    t.scenarios.add(b.scenario);
    tally.set(b.bot, t);
  }
  const skill = new Map((ratings.openskill?.bots ?? []).map((b) => [b.bot, b]));
  const rated = ratings.bradleyTerry?.bots ?? [];
  const order = [...rated.map((b) => b.bot), ...[...tally.keys()].filter((b) => !rated.some((r) => r.bot === b)).sort()];
  const bt = new Map(rated.map((b) => [b.bot, b]));
  return card(
    'Bot ratings',
    { 'data-testid': 'bot-results' },
    note(
      'Elo is a Bradley–Terry fit (with Firth’s bias-reducing penalty) over every scenario with a side-advantage term per scenario, so a bot is not credited for the side it happened to play; it is relative to the average bot, with its 95% interval. openskill (μ, σ; ordinal μ − 3σ) rates the matches in the order they ended. Score counts a draw as half a win.',
    ),
    table(
      [
        { label: 'Bot' },
        { label: 'Elo', num: true, title: 'Bradley–Terry strength net of side, relative to the average bot' },
        { label: '95% interval', num: true },
        { label: 'openskill', num: true, title: 'openskill rating: μ ± σ' },
        { label: 'Ordinal', num: true },
        { label: 'Games', num: true },
        { label: 'Won', num: true },
        { label: 'Lost', num: true },
        { label: 'Drawn', num: true },
        { label: 'Score', num: true },
        { label: 'Scenarios' },
      ],
      order.map((bot) => {
        const t = tally.get(bot) ?? { games: 0, wins: 0, losses: 0, draws: 0, scenarios: new Set() };
        const b = bt.get(bot);
        const o = skill.get(bot);
        return {
          cells: [
            bot,
            b ? signed(b.elo) : '–',
            b ? `${signed(b.interval.low)} to ${signed(b.interval.high)}` : '–',
            o ? `μ ${o.mu.toFixed(1)} ± ${o.sigma.toFixed(1)}` : '–',
            o ? o.ordinal.toFixed(1) : '–',
            t.games,
            t.wins,
            t.losses,
            t.draws,
            pct((t.wins + t.draws / 2) / (t.games || 1)),
            [...t.scenarios].sort().join(', '),
          ],
          attrs: { 'data-bot': bot, 'data-games': t.games, 'data-wins': t.wins, ...(b ? { 'data-elo': b.elo } : {}) },
        };
      }),
      { 'data-testid': 'bot-table' },
    ),
  );
}
