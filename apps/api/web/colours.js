// Colours of sides and powers, the same on every page: Axis warm, Allies cool, the rest from a palette.

const KNOWN = {
  Axis: '#b4472f',
  Allies: '#2f5fb3',
  GER: '#8f2d20',
  ITA: '#8a7a2a',
  JAP: '#c98a12',
  AFA: '#2f5fb3',
  WA: '#2f5fb3',
  CW: '#3b8fc0',
  FRA: '#5c7fd6',
  USA: '#2e8b57',
  USSR: '#7b3f9e',
  CHN: '#138a7a',
  CP: '#b8372b',
  AL: '#3949ab',
};
const PALETTE = ['#2f5fb3', '#b4472f', '#2e8b57', '#c98a12', '#7b3f9e', '#138a7a', '#a0522d', '#5d6d7e', '#c2185b', '#607d3b'];

/** Land nobody in the scenario controls. */
export const NEUTRAL = '#cfd4dc';

/** A stable colour for a side, a power, a bot or any other name. */
export function colour(name) {
  if (KNOWN[name]) return KNOWN[name];
  let hash = 0;
  for (const ch of String(name)) hash = (hash * 31 + ch.codePointAt(0)) >>> 0;
  return PALETTE[hash % PALETTE.length];
}
