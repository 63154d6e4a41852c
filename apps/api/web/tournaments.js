// #/tournaments and #/tournaments/ID : standings, results by side, and live progress.
import { api } from './api.js';
import { badge, card, h, note, table } from './dom.js';
import { colour } from './colours.js';
import { intervalBars } from './charts.js';
import { link } from './filters.js';
import { fixed, int, interval, pct, when } from './format.js';

/** How often a running tournament's page reads its progress again. */
export const REFRESH_MS = 3000;

export async function tournaments() {
  const { tournaments: rows } = await api('tournaments');
  return [
    h('h1', {}, 'Tournaments'),
    card(
      null,
      rows.length
        ? table(
            [{ label: 'Tournament' }, { label: 'Game' }, { label: 'Scenarios' }, { label: 'Bots' }, { label: 'Matches', num: true }, { label: 'State' }, { label: 'Last match' }],
            rows.map((t) => ({
              cells: [
                h('a', { href: `#/tournaments/${encodeURIComponent(t.id)}` }, t.id),
                t.game,
                t.scenarios.join(', ') || '—',
                t.bots.join(', ') || '—',
                t.planned ? `${int(t.matches)} of ${int(t.planned)}` : int(t.matches),
                t.state ? badge(t.state) : '—',
                when(t.lastEndedAt),
              ],
              attrs: { 'data-tournament': t.id },
            })),
            { 'data-testid': 'tournament-table' },
          )
        : note('No tournaments recorded yet. Run one: ', h('code', {}, 'npm run salient -- tournament run examples/tournaments/blitz-smoke.yaml')),
    ),
  ];
}

export async function tournament(id, ctx) {
  const t = await api(`tournaments/${encodeURIComponent(id)}`);
  const info = t.tournament;
  const p = t.progress;
  const live = p?.state === 'running' || info.state === 'submitted' || info.state === 'running';
  if (live) ctx.refreshIn(REFRESH_MS);
  const kinds = Object.entries(info.kinds).map(([k, n]) => `${n} ${k}`).join(', ');
  const standings = [...t.standings].sort((a, b) => b.score / (b.games || 1) - a.score / (a.games || 1));
  return [
    h('h1', {}, info.name ? `${info.name} ` : 'Tournament ', h('span', { class: 'muted' }, info.id), info.state ? [' ', badge(info.state)] : null),
    h(
      'p',
      { class: 'muted' },
      `${info.game} · scenarios ${info.scenarios.join(', ') || '—'} · ${int(info.matches)} matches recorded${kinds ? ` (${kinds})` : ''}${info.executor ? ` · ${info.executor}` : ''} · `,
      h('a', { href: link('#/matches', { tournament: info.id }) }, 'its matches'),
      ' · ',
      h('a', { href: link('#/', { tournament: info.id }) }, 'its win rates'),
    ),
    p ? progressCard(p, live) : null,
    card(
      'Standings',
      { 'data-testid': 'standings-card' },
      note('Score counts a win as 1 and a draw as ½. The interval is the 95% Wilson interval of the win rate.'),
      table(
        [{ label: '#', num: true }, { label: 'Bot' }, { label: 'Games', num: true }, { label: 'Won', num: true }, { label: 'Lost', num: true }, { label: 'Drawn', num: true }, { label: 'Score', num: true }, { label: 'Win rate', num: true }, { label: '95% interval', num: true }],
        standings.map((s, i) => ({ cells: [i + 1, s.bot, s.games, s.wins, s.losses, s.draws, `${fixed(s.score, s.score % 1 ? 1 : 0)} (${pct(s.score / (s.games || 1))})`, pct(s.winRate), interval(s.interval)], attrs: { 'data-bot': s.bot, 'data-games': s.games } })),
        { 'data-testid': 'standings' },
      ),
      standings.length
        ? intervalBars(
            standings.map((s) => ({ label: s.bot, rate: s.winRate, low: s.interval.low, high: s.interval.high, colour: '#4a6fa5', text: `${pct(s.winRate)} · ${s.wins} of ${s.games}` })),
            { testid: 'standing-bar', width: 760, caption: 'Win rate by bot' },
          )
        : null,
    ),
    card(
      'Results by scenario and side',
      table(
        [{ label: 'Scenario' }, { label: 'Side' }, { label: 'Bot' }, { label: 'Games', num: true }, { label: 'Won', num: true }, { label: 'Lost', num: true }, { label: 'Drawn', num: true }, { label: 'Win rate', num: true }, { label: '95% interval', num: true }],
        t.sides.map((s) => [s.scenario, h('span', {}, h('span', { class: 'dot', style: `--c:${colour(s.side)}` }), s.side), s.bot, s.games, s.wins, s.losses, s.draws, pct(s.winRate), interval(s.interval)]),
        { 'data-testid': 'sides' },
      ),
    ),
  ];
}

function progressCard(p, live) {
  const done = p.completed + p.failed;
  const share = p.total ? done / p.total : 0;
  return card(
    'Progress',
    { 'data-testid': 'progress-card' },
    h(
      'div',
      { class: 'progress', role: 'progressbar', 'aria-label': 'Matches done', 'aria-valuemin': 0, 'aria-valuemax': p.total, 'aria-valuenow': done, 'data-testid': 'progress', 'data-state': p.state },
      h('div', { class: 'done', style: `width:${(100 * p.completed) / (p.total || 1)}%` }),
      h('div', { class: 'failed', style: `width:${(100 * p.failed) / (p.total || 1)}%` }),
    ),
    h(
      'p',
      { 'data-testid': 'progress-text' },
      badge(p.state),
      ` ${int(done)} of ${int(p.total)} matches done (${pct(share, 0)})`,
      p.failed ? `, ${int(p.failed)} failed` : '',
      p.active ? `, ${int(p.active)} playing` : '',
      `, ${int(p.waiting)} waiting. `,
      h('span', { class: 'muted' }, `${p.source === 'queue' ? 'Counts from the queue' : 'Counted from the matches recorded in the store'}${live ? `; refreshed every ${REFRESH_MS / 1000} s, last at ${new Date().toLocaleTimeString('en-GB')}` : ''}.`),
    ),
  );
}
