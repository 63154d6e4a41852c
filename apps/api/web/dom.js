// Building the page: a tiny element helper and the few blocks every view uses.

/**
 * An element: h('a', { href, class: 'x', onclick: fn }, 'text', child, [more]). Attributes that are
 * undefined, null or false are left out; children that are null or undefined too.
 */
export function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  append(e, children);
  return e;
}

function append(parent, children) {
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    parent.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** A card, a titled section of a view: card(title, [attrs,] ...body); `title` is a string, a node or null. */
export function card(title, ...body) {
  const attrs = typeof body[0] === 'object' && body[0] !== null && !(body[0] instanceof Node) && !Array.isArray(body[0]) ? body.shift() : {};
  return h('section', { ...attrs, class: ['card', attrs.class].filter(Boolean).join(' ') }, title ? h('h2', {}, title) : null, ...body);
}

/**
 * A table. columns: [{ label, num?, title? }]; rows: arrays of cells (a cell is a value or a node),
 * or { cells, attrs } to put attributes on the row.
 */
export function table(columns, rows, attrs = {}) {
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      attrs,
      h('thead', {}, h('tr', {}, columns.map((c) => h('th', { scope: 'col', class: c.num ? 'num' : undefined, title: c.title }, c.label)))),
      h(
        'tbody',
        {},
        rows.map((r) => {
          const { cells, attrs: rowAttrs = {} } = Array.isArray(r) ? { cells: r } : r;
          return h('tr', rowAttrs, cells.map((v, i) => h('td', { class: columns[i]?.num ? 'num' : undefined }, v)));
        }),
      ),
    ),
  );
}

/** A muted paragraph: notes under charts, empty states. */
export const note = (...children) => h('p', { class: 'note' }, ...children);

/** A coloured square before a name (legends, events). */
export const swatch = (colour) => h('span', { class: 'swatch', style: `--c:${colour}`, 'aria-hidden': 'true' });

/** A short pill for a state or an outcome. */
export const badge = (text, kind = text) => h('span', { class: `badge badge-${String(kind).replace(/[^\w-]/g, '')}` }, text);
