// What a step did, as shapes on the map: moves as paths, attacks and combats as arrows onto their target
// with the odds, die and result. Read from the events' data by field name, for any game: `path` (area
// or hex ids), `from` / `to` (with `embark` / `debark` for a sea move), `hex` or `target` with
// `attackers` (unit ids) or `from` (ids of where they stand), `odds`, `die`, `result` or `outcome`.

const MOVES = new Set(['move', 'rail', 'sea', 'retreat', 'rebase', 'air', 'advance', 'placement', 'reinforcement', 'replacement']);
const COMBATS = new Set(['combat', 'attack', 'combat-start', 'attack-announced']);

/** `2329 (Danzig)` -> `2329`: an id as events write it, with any name after it. */
const idOf = (v) => (typeof v === 'string' && v ? v.split(' ')[0] : undefined);

/** The area (hex) each unit stands in, by unit id, in frame `f`. */
export function unitPlaces(f) {
  const at = new Map();
  for (const [area, units] of Object.entries(f?.units ?? {})) for (const u of units) if (u.id !== undefined) at.set(String(u.id), area);
  return at;
}

/**
 * The shapes of event `e`: [{ kind: 'path', ids, type }] for a move (ids in order, at least two),
 * [{ kind: 'combat', target, from, label, type }] for an attack or a combat (from: where the attackers
 * stood in `places`, unit id -> area). Events with nothing to draw give [].
 */
export function shapesOf(e, places) {
  const d = e.data;
  if (!d || typeof d !== 'object') return [];
  if (MOVES.has(e.type)) {
    const raw = Array.isArray(d.path) ? d.path : [d.from, d.embark, d.debark, d.to];
    const ids = raw.map(idOf).filter(Boolean).filter((id, i, all) => i === 0 || id !== all[i - 1]);
    return ids.length >= 2 ? [{ kind: 'path', ids, type: e.type }] : [];
  }
  if (COMBATS.has(e.type)) {
    const target = idOf(d.hex) ?? idOf(d.target);
    if (!target) return [];
    // Where the attack came from: the attacking units' places (`attackers`: unit ids), or the areas (hexes) the event names (`from`).
    const fromUnits = (Array.isArray(d.attackers) ? d.attackers : []).map((u) => places.get(String(u)));
    const fromIds = (Array.isArray(d.from) ? d.from : []).map(idOf);
    const from = [...new Set([...fromUnits, ...fromIds].filter((a) => a && a !== target))];
    const parts = [];
    if (d.odds !== undefined) parts.push(String(d.odds));
    if (d.die !== undefined) parts.push(`die ${d.die}`);
    const result = d.result ?? d.outcome;
    const label = parts.join(' · ') + (result !== undefined ? `${parts.length ? ' → ' : ''}${result}` : '');
    return [{ kind: 'combat', target, from, label, type: e.type }];
  }
  return [];
}

/**
 * Draws `shapes` into `layer` (emptied first): where(id) gives an area's (hex's) point on the map or
 * undefined; `w` is the line width in the layer's units (arrowheads and rings are sized from it).
 * Paths carry data-testid=action with data-kind=path and data-ids; combats data-kind=combat with
 * data-target, data-from and a label.
 */
export function drawActions(layer, shapes, where, w, { svg, text }) {
  layer.replaceChildren();
  const head = (from, to, cls) => {
    const [dx, dy] = [to[0] - from[0], to[1] - from[1]];
    const len = Math.hypot(dx, dy) || 1;
    const [ux, uy] = [dx / len, dy / len];
    const [bx, by] = [to[0] - ux * 4 * w, to[1] - uy * 4 * w];
    const pts = [to, [bx - uy * 2.2 * w, by + ux * 2.2 * w], [bx + uy * 2.2 * w, by - ux * 2.2 * w]];
    return svg('polygon', { points: pts.map((p) => `${p[0].toFixed(1)},${p[1].toFixed(1)}`).join(' '), class: `action-head ${cls}` });
  };
  /** The segment from a to b, pulled back from both ends by `gap` (so arrows do not cover the symbols). */
  const trim = (a, b, gap) => {
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
    if (len <= 2 * gap) return [a, b];
    const [ux, uy] = [(b[0] - a[0]) / len, (b[1] - a[1]) / len];
    return [
      [a[0] + ux * gap, a[1] + uy * gap],
      [b[0] - ux * gap, b[1] - uy * gap],
    ];
  };
  for (const s of shapes) {
    if (s.kind === 'path') {
      const pts = s.ids.map(where).filter(Boolean);
      if (pts.length < 2) continue;
      const [a, b] = trim(pts[pts.length - 2], pts[pts.length - 1], 3 * w);
      const line = [...pts.slice(0, -1), b];
      line[0] = pts.length === 2 ? a : pts[0];
      const cls = `action-${s.type}`;
      layer.append(
        svg(
          'g',
          { 'data-testid': 'action', 'data-kind': 'path', 'data-type': s.type, 'data-ids': s.ids.join(' ') },
          svg('path', { d: `M${line.map((p) => `${p[0].toFixed(1)} ${p[1].toFixed(1)}`).join('L')}`, class: `action-line ${cls}`, 'stroke-width': w }),
          head(line[line.length - 2], b, cls),
        ),
      );
    } else {
      const t = where(s.target);
      if (!t) continue;
      const g = svg('g', { 'data-testid': 'action', 'data-kind': 'combat', 'data-type': s.type, 'data-target': s.target, 'data-from': s.from.join(' ') });
      for (const id of s.from) {
        const f = where(id);
        if (!f) continue;
        const [a, b] = trim(f, t, 3 * w);
        g.append(svg('path', { d: `M${a[0].toFixed(1)} ${a[1].toFixed(1)}L${b[0].toFixed(1)} ${b[1].toFixed(1)}`, class: 'action-line action-attack', 'stroke-width': w * 1.3 }), head(a, b, 'action-attack'));
      }
      g.append(svg('circle', { cx: t[0].toFixed(1), cy: t[1].toFixed(1), r: (5 * w).toFixed(1), class: 'action-ring', 'stroke-width': w }));
      if (s.label) g.append(text(t[0] + 6 * w, t[1] - 5 * w, s.label, { class: 'action-label', 'font-size': (7 * w).toFixed(1) }));
      layer.append(g);
    }
  }
}
