// #/matches (a paged list) and #/matches/ID (one match: summary, score curve and replay).
import { api } from './api.js';
import { badge, card, h, note, swatch, table } from './dom.js';
import { colour } from './colours.js';
import { legend, lineChart } from './charts.js';
import { filterBar, filtersOf, link } from './filters.js';
import { duration, int, scenarioDetail, when } from './format.js';
import { replayViewer } from './map.js';
import { measuresOf } from './measures.js';

const PAGE = 25;

const sidesText = (m) =>
  Object.entries(m.sideBots).map(([side, bot]) => h('div', { class: 'side-line' }, h('span', { class: 'dot', style: `--c:${colour(side)}` }), `${side} `, h('span', { class: 'muted' }, bot), m.sides[side] ? [' ', badge(m.sides[side])] : null));
const scoresText = (scores) => Object.entries(scores).map(([p, v]) => `${p} ${v}`).join(' · ') || '—';

export async function matches(params) {
  const limit = Math.min(500, Math.max(1, Number.parseInt(params.limit ?? '', 10) || PAGE));
  const offset = Math.max(0, Number.parseInt(params.offset ?? '', 10) || 0);
  const filters = filtersOf(params);
  const keep = limit === PAGE ? {} : { limit };
  const [page, bar] = await Promise.all([api('matches', { ...filters, limit, offset }), filterBar('#/matches', params, { keep })]);
  const to = Math.min(page.total, offset + page.matches.length);
  const pager = h(
    'nav',
    { class: 'pager', 'aria-label': 'Pages' },
    h('span', { 'data-testid': 'match-count' }, page.matches.length ? `${int(offset + 1)}–${int(to)} of ${int(page.total)} matches, newest first` : `None on this page (${int(page.total)} in all)`),
    offset > 0 ? h('a', { class: 'button', href: link('#/matches', { ...filters, ...keep, offset: Math.max(0, offset - limit) || undefined }), 'data-testid': 'page-newer' }, '← Newer') : null,
    to < page.total ? h('a', { class: 'button', href: link('#/matches', { ...filters, ...keep, offset: offset + limit }), 'data-testid': 'page-older' }, 'Older →') : null,
  );
  return [
    h('h1', {}, 'Matches'),
    bar,
    card(
      null,
      page.total ? pager : null,
      page.matches.length
        ? table(
            [{ label: 'Match' }, { label: 'Scenario' }, { label: 'Seed', num: true }, { label: 'Sides, bots and results' }, { label: 'Final score' }, { label: 'Turns', num: true }, { label: 'Impulses', num: true }, { label: 'Ended' }],
            page.matches.map((m) => ({
              cells: [
                h('a', { href: `#/matches/${encodeURIComponent(m.matchId)}`, 'data-testid': 'match-link', class: 'mono' }, m.matchId),
                h('span', {}, `${m.game} ${m.scenario}`, m.kind !== 'completed' ? [' ', badge(m.kind)] : null),
                m.seed,
                sidesText(m),
                h('span', { class: 'nowrap' }, scoresText(m.scores)),
                m.turns,
                m.impulses,
                h('span', { class: 'nowrap' }, when(m.endedAt)),
              ],
              attrs: { 'data-match': m.matchId },
            })),
            { 'data-testid': 'match-table' },
          )
        : note('No matches for these filters.'),
    ),
  ];
}

export async function match(id, ctx) {
  const detail = await api(`matches/${encodeURIComponent(id)}`);
  const m = detail.match;
  const measures = await measuresOf(m.game);
  const powers = [...new Set(detail.impulses.flatMap((i) => Object.keys(i.scores)))];
  const series = powers.map((p) => ({ name: p, colour: colour(p), points: detail.impulses.map((imp, k) => ({ x: k + 1, y: imp.scores[p] ?? 0, note: `turn ${imp.position.turn}, impulse ${imp.position.impulse}` })) }));
  const curve = lineChart(series, { height: 220, xAxis: 'impulse', yAxis: measures.score.name, testid: 'match-curve' });
  const replay = card('Replay', { 'data-testid': 'replay-card' }, h('p', { class: 'muted', 'data-testid': 'board-loading' }, 'Re-running the match to draw its map…'));
  // The map comes from re-running the replay, which takes longer than the rest: it fills in when ready.
  api(`matches/${encodeURIComponent(id)}/board`).then(
    (board) => {
      if (!ctx.current()) return;
      replay.replaceChildren(h('h2', {}, 'Replay'));
      // Frame i ends impulse i - 1 (frame 0 is the start), so its score is that impulse's.
      const scoresAt = (i) => (board.frames.length === detail.impulses.length + 1 && i > 0 ? detail.impulses[i - 1]?.scores : undefined);
      const scoreNow = h('p', { class: 'score-now', 'data-testid': 'score-now' });
      const viewer = replayViewer(replay, board, {
        below: [scoreNow],
        onFrame: (i) => {
          curve.cursor(i > 0 ? i : null);
          const s = scoresAt(i);
          scoreNow.textContent = s ? `Score after impulse ${i} of ${board.frames.length - 1}: ${scoresText(s)}` : i === 0 ? 'No score yet: no impulse has ended.' : '';
        },
      });
      ctx.onLeave(viewer.stop);
    },
    (e) => {
      if (!ctx.current()) return;
      replay.replaceChildren(h('h2', {}, 'Replay'), h('p', { class: 'error-text', role: 'alert', 'data-testid': 'board-error' }, `The map of this match could not be drawn: ${e.message}`));
    },
  );
  return [
    h('h1', {}, 'Match ', h('span', { class: 'mono' }, m.matchId)),
    h(
      'p',
      { class: 'muted' },
      m.tournament ? ['Tournament ', h('a', { href: `#/tournaments/${encodeURIComponent(m.tournament)}` }, m.tournament), ' · '] : null,
      `${scenarioDetail(m)} · ended ${when(m.endedAt)} after ${duration(m.wallMs)}${m.worker ? ` on ${m.worker}` : ''} · `,
      h('a', { href: `/api/matches/${encodeURIComponent(m.matchId)}/replay`, download: `${m.matchId}.replay.json` }, 'replay file'),
    ),
    h(
      'div',
      { class: 'grid summary' },
      card(
        'Summary',
        h(
          'dl',
          { class: 'facts', 'data-testid': 'match-summary' },
          fact('Scenario', `${m.game} ${m.scenario}`),
          fact('Seed', m.seed),
          fact('Ended as', m.kind, m.reason ? h('div', { class: 'muted small' }, m.reason) : null, m.detail ? h('div', { class: 'muted small' }, m.detail) : null),
          fact('Length', `${int(m.turns)} turns · ${int(m.impulses)} impulses · ${int(m.decisions)} decisions`),
        ),
      ),
      card(
        'Sides',
        table(
          [{ label: 'Side' }, { label: 'Bot' }, { label: 'Result' }],
          Object.entries(m.sideBots).map(([side, bot]) => ({ cells: [h('span', {}, swatch(colour(side)), side), bot, m.sides[side] ? badge(m.sides[side]) : '—'], attrs: { 'data-side': side } })),
          { 'data-testid': 'match-sides' },
        ),
        h('p', { 'data-testid': 'final-score' }, h('strong', {}, 'Final score: '), scoresText(m.scores), m.kind === 'completed' || m.kind === 'adjudicated' || m.kind === 'forfeit' ? ` · ${measures.margin.name} ${m.margin}` : ''),
        h('p', { class: 'muted small', 'data-testid': 'measure-note' }, [measures.score.description, measures.margin.description].filter(Boolean).join(' ')),
      ),
    ),
    card(`${measures.score.name[0].toUpperCase()}${measures.score.name.slice(1)} by impulse`, series.length ? [legend(series.map((s) => ({ name: s.name, colour: s.colour }))), curve] : note('No impulses recorded for this match.')),
    replay,
  ];
}

const fact = (name, ...value) => [h('dt', {}, name), h('dd', {}, ...value)];
