// The Salient web dashboard: hash routes, each a view that reads the API and draws what it read.
import { card, h } from './dom.js';
import { overview } from './overview.js';
import { lengths } from './lengths.js';
import { curves } from './curves.js';
import { tournament, tournaments } from './tournaments.js';
import { match, matches } from './matches.js';

const ROUTES = [
  { path: /^\/$/, view: overview, nav: 'overview', title: 'Overview' },
  { path: /^\/lengths$/, view: lengths, nav: 'lengths', title: 'Lengths' },
  { path: /^\/curves$/, view: curves, nav: 'curves', title: 'Curves' },
  { path: /^\/tournaments$/, view: tournaments, nav: 'tournaments', title: 'Tournaments' },
  { path: /^\/tournaments\/([^/]+)$/, view: tournament, nav: 'tournaments', title: 'Tournament' },
  { path: /^\/matches$/, view: matches, nav: 'matches', title: 'Matches' },
  { path: /^\/matches\/([^/]+)$/, view: match, nav: 'matches', title: 'Match' },
];

const main = document.getElementById('view');
/** The view on screen: what to undo when leaving it, and whether it is still the one on screen. */
let shown = { leave: [] };

/** "#/matches/abc?x=1" → { path: "/matches/abc", params: { x: "1" } } */
function parseHash() {
  const raw = location.hash.replace(/^#/, '') || '/';
  const [path = '/', query = ''] = raw.split('?');
  return { path: path || '/', params: Object.fromEntries(new URLSearchParams(query)) };
}

/**
 * Draws the view of the current hash. A view gets its argument (the id in the path, or the query's
 * params) and a context: `current()` says whether it is still the one to show (an answer that comes
 * back after the user moved on is dropped), `onLeave(f)` undoes what it started, `refreshIn(ms)` draws
 * it again, quietly, after `ms`.
 */
async function render({ quiet = false } = {}) {
  for (const f of shown.leave) f();
  const ctx = {
    leave: [],
    current: () => shown === ctx,
    onLeave: (f) => ctx.leave.push(f),
    refreshIn: (ms) => {
      const timer = setTimeout(() => ctx.current() && render({ quiet: true }), ms);
      ctx.leave.push(() => clearTimeout(timer));
    },
  };
  shown = ctx;
  const { path, params } = parseHash();
  const route = ROUTES.find((r) => r.path.test(path));
  for (const a of document.querySelectorAll('[data-nav]')) {
    if (a.dataset.nav === route?.nav) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  document.title = `${route?.title ?? 'Not found'} · Salient`;
  if (!route) {
    main.replaceChildren(h('h1', {}, 'No such page'), card(null, h('p', {}, `There is no view at #${path}. `, h('a', { href: '#/' }, 'Go to the overview'), '.')));
    main.dataset.ready = path;
    return;
  }
  if (!quiet) {
    delete main.dataset.ready;
    main.setAttribute('aria-busy', 'true');
    scrollTo(0, 0);
    main.replaceChildren(h('div', { class: 'loading', 'data-testid': 'loading', role: 'status' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), 'Loading…'));
  }
  try {
    const arg = path.match(route.path)?.[1];
    const parts = await route.view(arg === undefined ? params : decodeURIComponent(arg), ctx);
    if (!ctx.current()) return;
    main.replaceChildren(...parts.flat().filter(Boolean));
  } catch (e) {
    if (!ctx.current()) return;
    main.replaceChildren(
      h(
        'section',
        { class: 'card error', role: 'alert', 'data-testid': 'error' },
        h('h2', {}, 'This view could not be loaded'),
        h('p', { 'data-testid': 'error-message' }, e instanceof Error ? e.message : String(e)),
        e?.requestId ? h('p', { class: 'muted small' }, `Request ${e.requestId}${e.code ? ` · ${e.code}` : ''}`) : null,
        h('p', {}, h('button', { type: 'button', onclick: () => render() }, 'Try again'), ' ', h('a', { href: '#/' }, 'Overview')),
      ),
    );
  }
  main.removeAttribute('aria-busy');
  main.dataset.ready = path;
}

addEventListener('hashchange', () => render());
render();
