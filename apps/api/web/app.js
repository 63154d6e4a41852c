// The Salient web dashboard: hash routes, each view reading the API and drawing what it read.
import { api } from './api.js';
import { colour, histogram, intervalBars, lineChart, pct } from './charts.js';
import { replayViewer } from './map.js';

const view = document.getElementById('view');
let cleanup = () => {};

/** A DOM element: h('div', { class: 'card' }, child, 'text', ...). */
function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) if (c !== undefined && c !== null) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return e;
}

const card = (title, ...body) => h('section', { class: 'card' }, title ? h('h2', {}, title) : null, ...body);
const table = (head, rows, testid) =>
  h('table', { 'data-testid': testid }, h('thead', {}, h('tr', {}, head.map(([t, num]) => h('th', { class: num ? 'num' : undefined }, t)))), h('tbody', {}, rows));
const td = (v, num) => h('td', { class: num ? 'num' : undefined }, v);
const interval = (i) => `${pct(i.low)}–${pct(i.high)}`;
const key = (r) => `${r.game} ${r.scenario} · ${r.packId} ${r.packHash.slice(0, 8)} · rules ${r.rulesVersion}`;

/** Filters kept in the hash's query: #/?scenario=A&bot=random */
function routeParams() {
  const [, q = ''] = location.hash.split('?');
  return Object.fromEntries(new URLSearchParams(q));
}

async function filterBar(params, onChange, fields = ['game', 'scenario', 'bot', 'tournament']) {
  const [rates, tours] = await Promise.all([api('win-rates'), api('tournaments')]);
  const options = {
    game: [...new Set(rates.sides.map((s) => s.game))],
    scenario: [...new Set(rates.sides.map((s) => s.scenario))].sort(),
    bot: [...new Set(rates.bots.map((b) => b.bot))].sort(),
    tournament: tours.tournaments.map((t) => t.id),
  };
  const form = h('form', { class: 'filters', 'aria-label': 'Filters' });
  for (const f of fields) {
    const select = h('select', { name: f, 'data-testid': `filter-${f}` }, h('option', { value: '' }, 'all'), options[f].map((v) => h('option', { value: v, selected: params[f] === v }, v)));
    select.addEventListener('change', () => onChange({ ...params, [f]: select.value }));
    form.append(h('label', {}, f, select));
  }
  return form;
}

const withQuery = (base, params) => {
  const q = new URLSearchParams(Object.entries(params).filter(([, v]) => v));
  return `${base}${q.toString() ? `?${q}` : ''}`;
};

// ---- views ----

async function overview(params) {
  const rates = await api('win-rates', params);
  const bar = await filterBar(params, (p) => (location.hash = withQuery('#/', p)));
  const out = [h('h1', {}, 'Which side wins each scenario'), bar];
  if (!rates.sides.length) return [...out, card('', h('p', { class: 'muted' }, 'No matches recorded for this filter. Play some: npm run salient -- tournament run examples/tournaments/blitz-smoke.yaml'))];
  const groups = new Map();
  for (const s of rates.sides) groups.set(key(s), [...(groups.get(key(s)) ?? []), s]);
  const charts = [...groups].map(([k, sides]) =>
    card(
      k,
      intervalBars(
        sides.map((s) => ({
          label: s.side,
          rate: s.winRate,
          low: s.interval.low,
          high: s.interval.high,
          note: `of ${s.games} (${s.wins}W ${s.losses}L ${s.draws}D)`,
          data: { 'data-scenario': s.scenario, 'data-side': s.side, 'data-games': s.games, 'data-wins': s.wins },
        })),
        { testid: 'winrate-bar' },
      ),
      h('p', { class: 'muted' }, 'Bars: share of games won by the side; whiskers: 95% Wilson interval. Draws count as not won.'),
    ),
  );
  const byBot = new Map();
  for (const b of rates.bots) {
    const t = byBot.get(b.bot) ?? { bot: b.bot, games: 0, wins: 0, losses: 0, draws: 0 };
    t.games += b.games;
    t.wins += b.wins;
    t.losses += b.losses;
    t.draws += b.draws;
    byBot.set(b.bot, t);
  }
  const bots = [...byBot.values()].map((b) => ({ ...b, score: (b.wins + b.draws / 2) / (b.games || 1) })).sort((a, b) => b.score - a.score);
  const botTable = table(
    [['Bot'], ['Games', 1], ['W', 1], ['L', 1], ['D', 1], ['Score', 1]],
    bots.map((b) => h('tr', { 'data-bot': b.bot }, td(b.bot), td(b.games, 1), td(b.wins, 1), td(b.losses, 1), td(b.draws, 1), td(pct(b.score), 1))),
    'bot-table',
  );
  return [...out, h('div', { class: 'grid' }, charts), card('Bot results (every side together; ratings net of side advantage come with the statistics work)', botTable)];
}

async function lengths(params) {
  const { lengths: rows } = await api('lengths', params);
  const bar = await filterBar(params, (p) => (location.hash = withQuery('#/lengths', p)));
  const groups = new Map();
  for (const r of rows) groups.set(key(r), [...(groups.get(key(r)) ?? []), r]);
  return [
    h('h1', {}, 'How long games run'),
    bar,
    rows.length ? null : card('', h('p', { class: 'muted' }, 'No completed matches for this filter.')),
    ...[...groups].map(([k, metrics]) =>
      card(
        k,
        h(
          'div',
          { class: 'grid' },
          metrics.map((m) =>
            h('div', {}, h('strong', {}, m.metric), h('span', { class: 'muted' }, ` · ${m.matches} matches, mean ${m.mean.toFixed(1)}, median ${m.p50}, p90 ${m.p90}, ${m.min}–${m.max}`), histogram(m.buckets, { label: m.metric })),
          ),
        ),
      ),
    ),
  ];
}

async function curves(params) {
  const { curves: rows } = await api('curves', params);
  const bar = await filterBar(params, (p) => (location.hash = withQuery('#/curves', p)));
  const metric = params.metric || 'meanScore';
  const metricSelect = h(
    'select',
    { 'data-testid': 'curve-metric', 'aria-label': 'Measure' },
    [['meanScore', 'score (VP)'], ['meanLosses', 'losses'], ['meanControl', 'areas controlled'], ['meanUnits', 'units on the map']].map(([v, t]) => h('option', { value: v, selected: v === metric }, t)),
  );
  metricSelect.addEventListener('change', () => (location.hash = withQuery('#/curves', { ...params, metric: metricSelect.value })));
  bar.append(h('label', {}, 'measure', metricSelect));
  const groups = new Map();
  for (const r of rows) groups.set(key(r), [...(groups.get(key(r)) ?? []), r]);
  return [
    h('h1', {}, 'How the game moves, impulse by impulse'),
    bar,
    rows.length ? null : card('', h('p', { class: 'muted' }, 'No impulses recorded for this filter.')),
    ...[...groups].map(([k, points]) => {
      const positions = [...new Set(points.map((p) => `${p.turn}.${p.impulse}`))].sort((a, b) => a.split('.')[0] - b.split('.')[0] || a.split('.')[1] - b.split('.')[1]);
      const index = new Map(positions.map((p, i) => [p, i]));
      const powers = [...new Set(points.map((p) => p.power))];
      const series = powers.map((power) => ({
        name: power,
        points: points.filter((p) => p.power === power && p[metric] !== undefined).map((p) => [index.get(`${p.turn}.${p.impulse}`), p[metric]]),
      }));
      return card(`${k} · mean ${metricSelect.selectedOptions[0].textContent} by power`, lineChart(series, { xLabel: (i) => `T${positions[i]}` }), h('p', { class: 'muted' }, 'x: turn.impulse; each point averages the matches that reached it.'));
    }),
  ];
}

async function tournaments() {
  const { tournaments: rows } = await api('tournaments');
  return [
    h('h1', {}, 'Tournaments'),
    card(
      '',
      rows.length
        ? table(
            [['Tournament'], ['Game'], ['Scenarios'], ['Matches', 1], ['Planned', 1], ['State'], ['Last match']],
            rows.map((t) =>
              h('tr', {}, td(h('a', { href: `#/tournaments/${encodeURIComponent(t.id)}` }, t.id)), td(t.game), td(t.scenarios.join(', ')), td(t.matches, 1), td(t.planned ?? '—', 1), td(t.state ?? '—'), td(t.lastEndedAt || '—')),
            ),
            'tournament-table',
          )
        : h('p', { class: 'muted' }, 'No tournaments recorded yet. Run one: npm run salient -- tournament run examples/tournaments/blitz-smoke.yaml'),
    ),
  ];
}

async function tournament(id) {
  const t = await api(`tournaments/${encodeURIComponent(id)}`);
  const p = t.progress;
  const progress = p
    ? card(
        'Progress',
        h('div', { class: 'progress', role: 'progressbar', 'aria-valuemin': 0, 'aria-valuemax': p.total, 'aria-valuenow': p.completed + p.failed, 'data-testid': 'progress' }, h('div', { style: `width:${p.total ? (100 * (p.completed + p.failed)) / p.total : 0}%` })),
        h('p', {}, `${p.state}: ${p.completed} of ${p.total} matches done${p.failed ? `, ${p.failed} failed` : ''}${p.active ? `, ${p.active} playing` : ''}, ${p.waiting} waiting (${p.source === 'queue' ? 'from the queue' : 'recorded in the store'}).`),
      )
    : null;
  if (p && (p.state === 'running' || t.tournament.state === 'submitted')) {
    const timer = setTimeout(() => route(), 3000);
    cleanup = () => clearTimeout(timer);
  }
  const standings = table(
    [['Bot'], ['Games', 1], ['W', 1], ['L', 1], ['D', 1], ['Score', 1], ['Win rate', 1], ['95% interval', 1]],
    t.standings.map((s) => h('tr', {}, td(s.bot), td(s.games, 1), td(s.wins, 1), td(s.losses, 1), td(s.draws, 1), td(s.score, 1), td(pct(s.winRate), 1), td(interval(s.interval), 1))),
    'standings',
  );
  const sides = table(
    [['Scenario'], ['Side'], ['Bot'], ['Games', 1], ['W', 1], ['L', 1], ['D', 1], ['Win rate', 1]],
    t.sides.map((s) => h('tr', {}, td(s.scenario), td(s.side), td(s.bot), td(s.games, 1), td(s.wins, 1), td(s.losses, 1), td(s.draws, 1), td(`${pct(s.winRate)} (${interval(s.interval)})`, 1))),
    'sides',
  );
  const kinds = Object.entries(t.tournament.kinds).map(([k, n]) => `${n} ${k}`).join(', ');
  return [
    h('h1', {}, `Tournament ${t.tournament.id}`),
    h('p', { class: 'muted' }, `${t.tournament.game} · scenarios ${t.tournament.scenarios.join(', ') || '—'} · ${t.tournament.matches} matches recorded${kinds ? ` (${kinds})` : ''} · `, h('a', { href: `#/matches?tournament=${encodeURIComponent(id)}` }, 'its matches'), ' · ', h('a', { href: `#/?tournament=${encodeURIComponent(id)}` }, 'its win rates')),
    progress,
    card('Standings', standings),
    card('By scenario and side', sides),
  ];
}

async function matches(params) {
  const limit = 25;
  const offset = Number(params.offset ?? 0);
  const { offset: _o, ...filter } = params;
  const page = await api('matches', { ...filter, limit, offset });
  const bar = await filterBar(filter, (p) => (location.hash = withQuery('#/matches', p)));
  const outcome = (m) => Object.entries(m.sides).map(([s, o]) => `${s} ${o}`).join(', ') || m.kind;
  const nav = h(
    'p',
    {},
    `${page.total} matches · ${offset + 1}–${Math.min(page.total, offset + limit)} `,
    offset > 0 ? h('a', { href: withQuery('#/matches', { ...filter, offset: Math.max(0, offset - limit) }) }, '← newer') : null,
    ' ',
    offset + limit < page.total ? h('a', { href: withQuery('#/matches', { ...filter, offset: offset + limit }) }, 'older →') : null,
  );
  return [
    h('h1', {}, 'Matches'),
    bar,
    card(
      '',
      nav,
      table(
        [['Match'], ['Scenario'], ['Seed', 1], ['Bots'], ['Result'], ['Turns', 1], ['Impulses', 1], ['Ended']],
        page.matches.map((m) =>
          h('tr', {}, td(h('a', { href: `#/matches/${m.matchId}`, 'data-testid': 'match-link' }, m.matchId)), td(m.scenario), td(m.seed, 1), td(Object.entries(m.sideBots).map(([s, b]) => `${s}: ${b}`).join(', ')), td(outcome(m)), td(m.turns, 1), td(m.impulses, 1), td(m.endedAt)),
        ),
        'match-table',
      ),
    ),
  ];
}

async function match(id) {
  const [detail, board] = await Promise.all([api(`matches/${encodeURIComponent(id)}`), api(`matches/${encodeURIComponent(id)}/board`).catch((e) => e)]);
  const m = detail.match;
  const powers = [...new Set(detail.impulses.flatMap((i) => Object.keys(i.scores)))];
  const series = powers.map((p) => ({ name: p, colour: colour(p), points: detail.impulses.map((i, k) => [k, i.scores[p] ?? 0]) }));
  const summary = table(
    [['Scenario'], ['Seed', 1], ['Ended as'], ['Sides'], ['Scores'], ['Turns', 1], ['Impulses', 1], ['Decisions', 1]],
    [h('tr', {}, td(`${m.game} ${m.scenario}`), td(m.seed, 1), td(`${m.kind}${m.reason ? ` (${m.reason})` : ''}`), td(Object.entries(m.sideBots).map(([s, b]) => `${s} ${b}: ${m.sides[s] ?? '—'}`).join(' · ')), td(Object.entries(m.scores).map(([p, v]) => `${p} ${v}`).join(', ')), td(m.turns, 1), td(m.impulses, 1), td(m.decisions, 1))],
    'match-summary',
  );
  const out = [
    h('h1', {}, `Match ${m.matchId}`),
    h('p', { class: 'muted' }, `${m.tournament ? `Tournament ${m.tournament} · ` : ''}pack ${m.packId} ${m.packHash.slice(0, 8)} · rules ${m.rulesVersion} · replay: `, h('a', { href: `/api/matches/${m.matchId}/replay` }, 'JSON')),
    card('', summary),
    card('Score by impulse', lineChart(series, { height: 220, xLabel: (k) => String(k + 1), testid: 'match-curve' })),
  ];
  const replay = card('Replay');
  if (board instanceof Error) replay.append(h('p', { class: 'muted' }, `No map for this match: ${board.message}`));
  else {
    const stop = replayViewer(replay, board);
    cleanup = stop;
  }
  return [...out, replay];
}

const ROUTES = [
  [/^#?\/?$/, overview, 'overview'],
  [/^#\/lengths$/, lengths, 'lengths'],
  [/^#\/curves$/, curves, 'curves'],
  [/^#\/tournaments$/, tournaments, 'tournaments'],
  [/^#\/tournaments\/(.+)$/, tournament, 'tournaments'],
  [/^#\/matches$/, matches, 'matches'],
  [/^#\/matches\/(.+)$/, match, 'matches'],
];

async function route() {
  cleanup();
  cleanup = () => {};
  const [path] = location.hash.split('?');
  const found = ROUTES.find(([re]) => re.test(path || '#/'));
  for (const a of document.querySelectorAll('[data-nav]')) a.classList.toggle('active', found?.[2] === a.dataset.nav);
  if (!found) {
    view.replaceChildren(card('', h('p', {}, `No page ${path}. `, h('a', { href: '#/' }, 'Back to the overview'))));
    return;
  }
  const [re, render] = found;
  const arg = (path || '#/').match(re)?.[1];
  const first = view.childElementCount === 0 || view.dataset.route !== path;
  if (first) view.replaceChildren(h('p', { class: 'muted', 'data-testid': 'loading' }, 'Loading…'));
  view.dataset.route = path;
  try {
    const parts = await render(arg !== undefined ? decodeURIComponent(arg) : routeParams());
    view.replaceChildren(...parts.filter(Boolean));
    view.dataset.ready = path;
  } catch (e) {
    view.replaceChildren(h('section', { class: 'card error', role: 'alert', 'data-testid': 'error' }, h('h2', {}, 'This view could not be loaded'), h('p', {}, e instanceof Error ? e.message : String(e))));
  }
}

addEventListener('hashchange', route);
route();
