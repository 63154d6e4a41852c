// The filter bar: game, scenario, bot and tournament, offered from what the store holds.
import { api } from './api.js';
import { h } from './dom.js';

export const FILTERS = ['game', 'scenario', 'bot', 'tournament'];

let cached;
/** What can be chosen, read at most every 15 s (every view shows the bar). */
async function choices() {
  if (cached && Date.now() - cached.at < 15_000) return cached.value;
  const [rates, tours] = await Promise.all([api('win-rates'), api('tournaments')]);
  const sorted = (xs) => [...new Set(xs)].sort((a, b) => a.localeCompare(b));
  const value = {
    game: sorted(rates.sides.map((s) => s.game)),
    scenario: sorted(rates.sides.map((s) => s.scenario)),
    bot: sorted(rates.bots.map((b) => b.bot)),
    tournament: tours.tournaments.map((t) => t.id),
  };
  cached = { at: Date.now(), value };
  return value;
}

/** A hash route with its query: link('#/matches', { scenario: 'A' }) is "#/matches?scenario=A". */
export function link(route, params = {}) {
  const q = new URLSearchParams(Object.entries(params).filter(([, v]) => v !== undefined && v !== null && v !== ''));
  return `${route}${q.size ? `?${q}` : ''}`;
}

/** Only the filter fields of a route's params. */
export const filtersOf = (params) => Object.fromEntries(FILTERS.filter((f) => params[f]).map((f) => [f, params[f]]));

/**
 * The bar for `route`: changing a filter goes to the same route with the new filters (and `keep`,
 * params that survive a change, such as the chosen measure). `extra` are more labelled controls.
 */
export async function filterBar(route, params, { keep = {}, extra = [] } = {}) {
  const options = await choices();
  const current = filtersOf(params);
  const form = h('form', { class: 'filters', 'aria-label': 'Filters', onsubmit: (e) => e.preventDefault() });
  for (const f of FILTERS) {
    const values = params[f] && !options[f].includes(params[f]) ? [params[f], ...options[f]] : options[f];
    const select = h('select', { name: f, 'data-testid': `filter-${f}` }, h('option', { value: '' }, `all (${options[f].length})`), values.map((v) => h('option', { value: v, selected: params[f] === v }, v)));
    select.addEventListener('change', () => (location.hash = link(route, { ...current, ...keep, [f]: select.value })));
    form.append(h('label', {}, h('span', {}, f), select));
  }
  form.append(...extra);
  if (Object.keys(current).length) form.append(h('a', { class: 'clear', href: link(route, keep), 'data-testid': 'filter-clear' }, 'Clear filters'));
  return form;
}
