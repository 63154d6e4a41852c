// #/tournaments and #/tournaments/ID : one state per tournament with its reason (the same the list,
// the page and `salient tournament list`/`status` show), live progress, for a stop: sprt tournament its
// sequential test (the LLR between its bounds, the pair counts, Elo), and results by entrant as
// tournament managers print them: per pairing Elo ± (95%), LOS and draw ratio, a cross-table, standings
// by scenario and side; then standings by bot and side from the store.
import { api } from './api.js';
import { badge, card, h, note, table } from './dom.js';
import { colour } from './colours.js';
import * as Plot from './vendor/plot.js';
import { chartBox, intervalBars, noData, num, tagged, ticks } from './charts.js';
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
            [{ label: 'Tournament' }, { label: 'Game' }, { label: 'Executor' }, { label: 'Scenarios' }, { label: 'Matches', num: true }, { label: 'State' }, { label: 'Last activity' }],
            rows.map((t) => ({
              cells: [
                h('a', { href: `#/tournaments/${encodeURIComponent(t.id)}` }, t.id),
                t.game,
                t.executor ?? '—',
                t.scenarios.join(', ') || '—',
                `${int(t.done)} of ${int(t.planned ?? t.done)}`,
                stateText(t),
                when(t.lastActivity),
              ],
              attrs: { 'data-tournament': t.id, 'data-state': t.state },
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
  // Refreshed while it can still change; a run whose runner went quiet is `failed` and is not.
  const live = t.state === 'submitted' || t.state === 'running';
  if (live) ctx.refreshIn(REFRESH_MS);
  const kinds = Object.entries(info.kinds).map(([k, n]) => `${n} ${k}`).join(', ');
  const standings = [...t.standings].sort((a, b) => b.score / (b.games || 1) - a.score / (a.games || 1));
  return [
    h('h1', {}, info.name ? `${info.name} ` : 'Tournament ', h('span', { class: 'muted' }, info.id), ' ', badge(t.state)),
    h('p', { 'data-testid': 'tournament-state', 'data-state': t.state }, h('strong', {}, t.reason), '.'),
    h(
      'p',
      { class: 'muted' },
      `${info.game} · scenarios ${info.scenarios.join(', ') || '—'} · ${int(info.matches)} matches recorded${kinds ? ` (${kinds})` : ''}${info.executor ? ` · ${info.executor}` : ''} · `,
      h('a', { href: link('#/matches', { tournament: info.id }) }, 'its matches'),
      ' · ',
      h('a', { href: link('#/', { tournament: info.id }) }, 'its win rates'),
    ),
    t.notes.length ? note(t.notes.map((n) => `${n[0].toUpperCase()}${n.slice(1)}. `)) : null,
    p ? progressCard(p, live) : null,
    t.sprt ? sprtCard(t.sprt) : null,
    t.results ? resultsCards(t.results) : null,
    card(
      'Standings by bot',
      { 'data-testid': 'standings-card' },
      note('Score counts a win as 1 and a draw as ½. The interval is the 95% Wilson interval of the win rate.'),
      table(
        [{ label: '#', num: true }, { label: 'Bot' }, { label: 'Games', num: true }, { label: 'Won', num: true }, { label: 'Lost', num: true }, { label: 'Drawn', num: true }, { label: 'Score', num: true }, { label: 'Win rate', num: true }, { label: '95% interval', num: true }],
        standings.map((s, i) => ({ cells: [i + 1, s.bot, s.games, s.wins, s.losses, s.draws, `${fixed(s.score, s.score % 1 ? 1 : 0)} (${pct(s.score / (s.games || 1))})`, pct(s.winRate), interval(s.interval)], attrs: { 'data-bot': s.bot, 'data-games': s.games } })),
        { 'data-testid': 'standings' },
      ),
      intervalBars(
        standings.map((s) => ({ label: s.bot, rate: s.winRate, low: s.interval.low, high: s.interval.high, colour: '#4a6fa5', text: `${pct(s.winRate)} · ${s.wins} of ${s.games}` })),
        { testid: 'standing-bar', width: 760, caption: 'Win rate by bot', empty: 'No games recorded yet: no win rates to draw.' },
      ),
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
      `, ${int(p.waiting)} waiting`,
      p.unplayed ? `, ${int(p.unplayed)} left unplayed` : '',
      '. ',
      h('span', { class: 'muted' }, `${p.source === 'queue' ? 'Counts from the queue' : 'Counted from the matches recorded in the store'}${live ? `; refreshed every ${REFRESH_MS / 1000} s, last at ${new Date().toLocaleTimeString('en-GB')}` : ''}.`),
    ),
  );
}

/** A tournament's state as a badge and its reason ("stopped: SPRT accepted H1 after 135 pairs"). */
function stateText(t) {
  const why = t.reason.startsWith(`${t.state}: `) ? t.reason.slice(t.state.length + 2) : t.reason;
  return h('span', { 'data-testid': 'state', title: t.reason }, badge(t.state), ' ', h('span', { class: 'muted' }, why));
}

/**
 * Results by entrant, as cutechess-cli and fastchess users read them: per pairing the first entrant's
 * W/L/D, Elo with its 95% interval, LOS and draw ratio (and the pentanomial of side-swapped pairs); a
 * cross-table; and standings by scenario, each with results by side.
 */
function resultsCards(r) {
  const penta = r.pairings.some((x) => x.pentanomial);
  const cards = [
    card(
      'Pairings',
      { 'data-testid': 'pairings-card' },
      note(
        `Each row is the first entrant's results against the second. Elo is its difference with the 95% interval${penta ? ', from the side-swapped pairs (both games of a seed, sides exchanged) as fastchess counts them' : ', from the games as cutechess-cli counts them'}; LOS is the likelihood that it is the stronger; draws are the drawn share of its games.`,
      ),
      table(
        [
          { label: 'Pairing' },
          { label: 'Games', num: true },
          { label: 'W–L–D', num: true },
          { label: 'Score', num: true },
          { label: 'Elo (95%)', num: true },
          { label: 'LOS', num: true },
          { label: 'Draws', num: true },
          ...(penta ? [{ label: 'Pairs', num: true }, { label: 'Ptnml(0–2)', num: true, title: 'pairs scoring 0, ½, 1, 1½, 2 for the first entrant' }] : []),
          { label: 'Forfeits', num: true },
          { label: 'Errors', num: true },
        ],
        r.pairings.map((x) => ({
          cells: [
            `${x.first} vs ${x.second}`,
            x.games,
            `${x.wins}–${x.losses}–${x.draws}`,
            x.scorePct === null ? '—' : `${fixed(x.score, x.score % 1 ? 1 : 0)} (${fixed(x.scorePct)}%)`,
            x.elo ? `${signed(x.elo.elo)} ± ${x.elo.plusMinus === null ? '∞' : x.elo.plusMinus.toFixed(1)}` : '—',
            x.elo ? pct(x.elo.los ?? Number.NaN) : '—',
            x.drawRatio === null ? '—' : pct(x.drawRatio),
            ...(penta ? [x.pairs ?? '—', x.pentanomial ? x.pentanomial.join(', ') : '—'] : []),
            x.forfeits,
            x.errors,
          ],
          attrs: { 'data-first': x.first, 'data-second': x.second, 'data-games': x.games, 'data-elo': x.elo?.elo ?? '', 'data-los': x.elo?.los ?? '' },
        })),
        { 'data-testid': 'pairings' },
      ),
    ),
  ];
  const { entrants, cells } = r.crossTable;
  if (entrants.length > 1) {
    const totals = new Map(r.standings.map((s) => [s.name, s]));
    cards.push(
      card(
        'Cross-table',
        { 'data-testid': 'cross-table-card' },
        note("Each cell is the row entrant's score against the column entrant, of the games they played (a win 1, a draw ½)."),
        table(
          [{ label: '' }, ...entrants.map((e) => ({ label: e, num: true })), { label: 'Score', num: true }],
          entrants.map((row) => ({
            cells: [
              h('strong', {}, row),
              ...entrants.map((col) => {
                const c = cells[row]?.[col];
                return row === col ? '—' : c ? h('span', { 'data-cell': `${row}|${col}`, 'data-score': c.score, 'data-games': c.games, title: `${c.wins} won, ${c.losses} lost, ${c.draws} drawn` }, `${fixed(c.score, c.score % 1 ? 1 : 0)} / ${c.games}`) : '';
              }),
              totals.has(row) ? `${fixed(totals.get(row).score, totals.get(row).score % 1 ? 1 : 0)} / ${totals.get(row).games}` : '',
            ],
            attrs: { 'data-row': row },
          })),
          { 'data-testid': 'cross-table' },
        ),
      ),
    );
  }
  const sides = [...new Set(r.byScenario.flatMap((b) => b.standings.flatMap((s) => Object.keys(s.bySide))))].sort();
  const side = (b) => (b ? `${b.wins}–${b.losses}–${b.draws}` : '—');
  cards.push(
    card(
      'Standings by scenario and side',
      { 'data-testid': 'by-scenario-card' },
      note('Wins, losses and draws of each entrant in each scenario, overall and on each side.'),
      table(
        [{ label: 'Scenario' }, { label: 'Entrant' }, { label: 'Games', num: true }, { label: 'W–L–D', num: true }, { label: 'Score', num: true }, ...sides.map((s) => ({ label: `${s} W–L–D`, num: true })), { label: 'Forfeits', num: true }, { label: 'Errors', num: true }],
        r.byScenario.flatMap((b) =>
          b.standings.map((s) => ({
            cells: [b.scenario, s.name, s.games, side(s), s.scorePct === null ? '—' : `${fixed(s.scorePct)}%`, ...sides.map((x) => side(s.bySide[x])), s.forfeits, s.errors],
            attrs: { 'data-scenario': b.scenario, 'data-entrant': s.name, 'data-games': s.games },
          })),
        ),
        { 'data-testid': 'by-scenario' },
      ),
    ),
  );
  return cards;
}

// Signed as rounded, so a hair below zero is not shown as "−0.0".
const signed = (x, digits = 1) => {
  if (x === null || x === undefined) return '∞';
  const r = Number(x.toFixed(digits));
  return `${r > 0 ? '+' : r < 0 ? '−' : ''}${Math.abs(r).toFixed(digits)}`;
};
const CELLS = ['0', '½', '1', '1½', '2'];

/** The SPRT of a stop: sprt tournament: the verdict, the LLR between its bounds, the pair counts and the strength estimates. */
function sprtCard(s) {
  const verdict = s.accepted ? `${s.accepted} accepted` : s.reason ? 'undecided' : 'running';
  const question = `Is ${s.candidate} at least ${num(s.elo1)} normalized Elo stronger than ${s.baseline} (H1), or not ${s.elo0 > 0 ? `more than ${num(s.elo0)}` : s.elo0 < 0 ? `less than ${num(s.elo0)} weaker` : 'stronger'} (H0)?`;
  const verdictText = s.accepted === 'H1' ? `${s.candidate} is stronger` : s.accepted === 'H0' ? `${s.candidate} is not stronger` : s.reason ? 'the plan ran out before the test decided' : 'the test goes on until the LLR reaches a bound';
  const estimates = s.pairs
    ? [
        h('strong', {}, `Elo ${signed(s.elo.elo)} ± ${s.elo.plusMinus === null ? '∞' : s.elo.plusMinus.toFixed(1)}`),
        ` (likelihood of superiority ${pct(s.elo.los ?? Number.NaN)}) · normalized Elo ${signed(s.nelo.nelo)} (95%: ${signed(s.nelo.ci.low)} to ${signed(s.nelo.ci.high)})`,
        s.sprtElo
          ? h(
              'span',
              { 'data-testid': 'sprt-adjusted', title: 'An estimate made after an early stop leans towards the hypothesis accepted; this one allows for where the test stopped (as fishtest reports it).' },
              ` · SPRT-adjusted Elo ${signed(s.sprtElo.elo)} (95%: ${signed(s.sprtElo.ci.low)} to ${signed(s.sprtElo.ci.high)})`,
            )
          : null,
      ]
    : 'No complete pair yet.';
  return card(
    'Sequential test (SPRT)',
    { 'data-testid': 'sprt-card', 'data-state': s.state, 'data-accepted': s.accepted ?? '' },
    h('p', {}, badge(verdict, s.accepted ?? (s.reason ? 'undecided' : 'running')), ' ', h('span', { 'data-testid': 'sprt-verdict' }, verdictText), '. ', h('span', { class: 'muted' }, question)),
    llrGauge(s),
    h('p', { 'data-testid': 'sprt-estimates' }, estimates),
    pentanomialBars(s),
    note(
      `Pairs are the two games of one seed with the sides exchanged, scored from ${s.candidate}'s seat (win 1, draw ½). `,
      `${int(s.pairs)} pairs counted`,
      s.pendingPairs ? `, ${int(s.pendingPairs)} with one game in` : '',
      s.voidedPairs ? `, ${int(s.voidedPairs)} voided by a game that ended in error` : '',
      ` · ${int(s.matchesSeen)} of ${int(s.matches)} planned games. α ${s.alpha}, β ${s.beta}; the pentanomial model and normalized Elo bounds as fishtest uses them.`,
      s.reason ? h('span', { 'data-testid': 'sprt-reason' }, ` ${s.reason}.`) : null,
    ),
  );
}

/**
 * The LLR as a marker on the line from the lower bound (accept H0) to the upper (accept H1), with 0
 * between them.
 */
function llrGauge(s) {
  const colour = s.state === 'H1' ? 'var(--good, #23784a)' : s.state === 'H0' ? 'var(--bad, #a3261b)' : 'var(--accent, #2f5fb3)';
  const clamp = (v) => Math.min(s.upper, Math.max(s.lower, v));
  const at = (v) => num(Number(v.toFixed(2)));
  const label = `LLR ${s.llr.toFixed(2)} between ${s.lower.toFixed(2)} (accept H0) and ${s.upper.toFixed(2)} (accept H1)`;
  return chartBox(
    (w) =>
      Plot.plot({
        width: w,
        height: 78,
        marginLeft: 64,
        marginRight: 64,
        marginTop: 8,
        marginBottom: 8,
        style: { fontFamily: 'inherit', fontSize: '12px', background: 'transparent', overflow: 'visible' },
        ariaLabel: label,
        ariaDescription: `after ${s.pairs} pairs`,
        x: { domain: [s.lower, s.upper], axis: null },
        y: { domain: [-1, 1], axis: null },
        marks: [
          Plot.ruleY([0], { x1: s.lower, x2: s.upper, stroke: 'currentColor', strokeOpacity: 0.25, strokeWidth: 8, strokeLinecap: 'round', ariaHidden: true }),
          Plot.ruleX([0], { y1: -0.35, y2: 0.35, stroke: 'currentColor', strokeOpacity: 0.4, ariaHidden: true }),
          Plot.ruleX([s.lower], { y1: -0.45, y2: 0.45, stroke: 'var(--bad, #a3261b)', strokeWidth: 2, ariaHidden: true }),
          Plot.ruleX([s.upper], { y1: -0.45, y2: 0.45, stroke: 'var(--good, #23784a)', strokeWidth: 2, ariaHidden: true }),
          Plot.text([s.lower], { x: (v) => v, y: 0, text: (v) => `H0 ${at(v)}`, textAnchor: 'end', dx: -10 }),
          Plot.text([s.upper], { x: (v) => v, y: 0, text: (v) => `${at(v)} H1`, textAnchor: 'start', dx: 10 }),
          Plot.dot([s], {
            x: (d) => clamp(d.llr),
            y: 0,
            r: 8,
            fill: colour,
            stroke: 'white',
            title: (d) => `LLR ${d.llr.toFixed(2)} after ${d.pairs} pairs`,
            render: tagged(() => ({ 'data-testid': 'llr-marker', 'data-llr': s.llr })),
          }),
          Plot.text([s], { x: (d) => clamp(d.llr), y: -1, text: (d) => `LLR ${at(d.llr)}`, lineAnchor: 'bottom' }),
        ],
      }),
    { guess: 760, maxWidth: 840, attrs: { 'data-testid': 'llr-gauge', role: 'img', 'aria-label': label } },
  );
}

/** Pairs by the candidate's score over the two games (0 to 2), as bars; each bar data-cell and data-count. */
function pentanomialBars(s) {
  const cells = s.pentanomial.map((count, i) => ({ cell: i, label: CELLS[i], count }));
  const pairs = (n) => `${n} ${n === 1 ? 'pair' : 'pairs'}`;
  const label = `Pairs by ${s.candidate}'s score over the two games`;
  const max = Math.max(1, ...s.pentanomial);
  if (!s.pentanomial.some((n) => n > 0)) return noData('No complete pair yet: no pairs to count.', { 'data-chart': 'pentanomial' });
  return h(
    'figure',
    {},
    chartBox(
      (w) =>
        Plot.plot({
          width: w,
          height: 140,
          marginLeft: 36,
          marginTop: 18,
          marginBottom: 36,
          style: { fontFamily: 'inherit', fontSize: '12px', background: 'transparent', overflow: 'visible' },
          ariaLabel: label,
          ariaDescription: cells.map((c) => `${pairs(c.count)} scoring ${c.label}`).join(', '),
          x: { domain: CELLS, label: `${s.candidate}'s score over the pair (of 2)`, labelAnchor: 'center', labelArrow: 'none', tickSize: 0, padding: 0.25 },
          y: { domain: [0, max], ticks: ticks(0, max, 3).filter((t) => Number.isInteger(t) && t <= max), tickFormat: 'd', grid: true, label: null },
          marks: [
            Plot.ruleY([0], { stroke: '#aab2c0' }),
            Plot.barY(cells, {
              x: 'label',
              y: 'count',
              fill: 'var(--accent, #2f5fb3)',
              title: (c) => `${pairs(c.count)} scoring ${c.label} of 2`,
              render: tagged((i) => ({ 'data-cell': cells[i].cell, 'data-count': cells[i].count })),
            }),
            Plot.text(cells, { x: 'label', y: 'count', text: (c) => String(c.count), dy: -7 }),
          ],
        }),
      { guess: 420, maxWidth: 480, attrs: { 'data-testid': 'pentanomial', role: 'img', 'aria-label': label } },
    ),
    h('figcaption', { class: 'muted' }, label),
  );
}
