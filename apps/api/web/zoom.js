// Zoom and pan for the replay viewer's maps, with d3-zoom (served by this server: ./vendor/viz.js).
import { svg } from './charts.js';
import { h } from './dom.js';
import { select, zoom, zoomIdentity } from './vendor/viz.js';

/** How far in a map may be zoomed (times its fitted size), and the step of a button or key. */
const MAX_SCALE = 40;
const STEP = 1.6;
const PAN = 60;

/**
 * Makes `map` (an SVG with a viewBox) zoomable: `content` (a <g> holding every layer, or a list of
 * such groups moved together, e.g. one in another SVG stacked under `map`) is moved and
 * scaled by the wheel, a drag, a pinch, the buttons of `bar` (zoom in, zoom out, fit) and the keyboard
 * (+ and - zoom, 0 fits, shift and an arrow pans). The scale shown is written to `map`'s `data-zoom`
 * (1 when fitted), and the transform ({ k, x, y }: a point p of the fitted map is at k p + (x, y)) is
 * handed to `onZoom`, so that a view can draw its symbols (names, counters) at a readable size in
 * their zoomed places while `content` (its geometry) is scaled.
 * Returns { bar, overview, reset(), stop() }: reset() goes back to the fitted view (after the view's
 * own fit changes), redrawOverview() after what the overview draws changed, stop() lets go of the
 * keyboard. `overview` is a small map of the whole fitted view
 * (the view fills it with `drawOverview(g)`, in the map's units) with a frame around the part shown:
 * shown while zoomed in; a click there centres the map on that point.
 */
export function zoomable(map, content, { onZoom = () => {}, drawOverview } = {}) {
  const contents = Array.isArray(content) ? content : [content];
  const behaviour = zoom()
    .scaleExtent([1, MAX_SCALE])
    .on('zoom', (e) => {
      const t = e.transform;
      const transform = `translate(${t.x.toFixed(2)},${t.y.toFixed(2)}) scale(${t.k.toFixed(4)})`;
      for (const g of contents) g.setAttribute('transform', transform);
      map.setAttribute('data-zoom', t.k.toFixed(3));
      zoomOut.disabled = t.k <= 1.0001;
      zoomIn.disabled = t.k >= MAX_SCALE - 1e-6;
      frameOverview(t);
      onZoom(t);
    });
  // The pan stays within the map as fitted: the extent and the translate extent are the viewBox as it
  // is now (a view changes its viewBox when it fits another region, then calls reset()).
  const box = () => {
    const v = map.viewBox.baseVal;
    return [
      [v.x, v.y],
      [v.x + v.width, v.y + v.height],
    ];
  };
  behaviour.extent(box);
  const sel = select(map);
  sel.call(behaviour).on('dblclick.zoom', null);
  map.classList.add('zoomable');

  const by = (k) => sel.call(behaviour.scaleBy, k);
  const zoomIn = h('button', { type: 'button', 'data-testid': 'zoom-in', title: 'Zoom in (+)', 'aria-label': 'Zoom in (+)' }, '+');
  const zoomOut = h('button', { type: 'button', 'data-testid': 'zoom-out', title: 'Zoom out (-)', 'aria-label': 'Zoom out (-)' }, '−');
  const fit = h('button', { type: 'button', 'data-testid': 'zoom-fit', title: 'Fit the map to the frame (0)', 'aria-label': 'Fit the map to the frame (0)' }, 'Fit');
  // The overview: the whole fitted map small, the part shown framed.
  const overviewContent = svg('g', { class: 'overview-map' });
  const shownFrame = svg('rect', { class: 'overview-frame', 'data-testid': 'overview-frame' });
  const overview = svg('svg', { class: 'overview', 'data-testid': 'overview', role: 'img', 'aria-label': 'Where the part shown lies on the whole map (click to go there)' }, overviewContent, shownFrame);
  overview.style.display = 'none';
  function frameOverview(t) {
    const [[x0, y0], [x1, y1]] = box();
    overview.setAttribute('viewBox', `${x0} ${y0} ${x1 - x0} ${y1 - y0}`);
    // The part shown, in the fitted map's units: the inverse of the transform applied to the viewBox.
    shownFrame.setAttribute('x', ((x0 - t.x) / t.k).toFixed(1));
    shownFrame.setAttribute('y', ((y0 - t.y) / t.k).toFixed(1));
    shownFrame.setAttribute('width', ((x1 - x0) / t.k).toFixed(1));
    shownFrame.setAttribute('height', ((y1 - y0) / t.k).toFixed(1));
    overview.style.display = drawOverview && t.k > 1.5 ? '' : 'none';
  }
  overview.addEventListener('click', (e) => {
    const p = overview.createSVGPoint();
    [p.x, p.y] = [e.clientX, e.clientY];
    const at = p.matrixTransform(overview.getScreenCTM().inverse());
    sel.call(behaviour.translateTo, at.x, at.y);
  });
  const redrawOverview = () => {
    if (!drawOverview) return;
    overviewContent.replaceChildren();
    drawOverview(overviewContent);
  };
  const reset = () => {
    behaviour.translateExtent(box());
    redrawOverview();
    sel.call(behaviour.transform, zoomIdentity);
  };
  zoomIn.addEventListener('click', () => by(STEP));
  zoomOut.addEventListener('click', () => by(1 / STEP));
  fit.addEventListener('click', reset);
  const bar = h('div', { class: 'segmented zoom-buttons', role: 'group', 'aria-label': 'Zoom and pan (wheel, drag, + - 0, shift and arrows)' }, zoomOut, fit, zoomIn);

  const onKey = (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) return;
    if (e.target instanceof HTMLElement && e.target.closest('input, select, textarea, [contenteditable]')) return;
    const pan = { ArrowLeft: [PAN, 0], ArrowRight: [-PAN, 0], ArrowUp: [0, PAN], ArrowDown: [0, -PAN] }[e.key];
    let act;
    if (pan && e.shiftKey) act = () => sel.call(behaviour.translateBy, pan[0] / currentScale(), pan[1] / currentScale());
    else if (e.key === '+' || e.key === '=') act = () => by(STEP);
    else if (e.key === '-' || e.key === '_') act = () => by(1 / STEP);
    else if (e.key === '0') act = reset;
    if (!act) return;
    e.preventDefault();
    act();
  };
  const currentScale = () => Number(map.getAttribute('data-zoom') ?? 1) || 1;
  document.addEventListener('keydown', onKey);
  reset();
  return { bar, overview, reset, redrawOverview, stop: () => document.removeEventListener('keydown', onKey) };
}
