/**
 * Named, switchable rulings: where the rulebook text is ambiguous or damaged (digest §7.3), each
 * reading S3 can meet is a named option with a default. A game picks them at set-up with the option
 * `rulings` (`mud-mf=halve-up,ex-tie=defender-smaller`); `salient rules coverage` lists them through
 * the notes of the sections they touch (sections.ts).
 */
import { SalientError, type Json } from '@salient/engine';

export interface Ruling {
  /** Stable id used in the `rulings` option. */
  id: string;
  /** The rule sections it reads. */
  sections: readonly string[];
  /** Digest §7.3 item, when the ambiguity is listed there. */
  digest?: number;
  /** The question, in a sentence. */
  question: string;
  /** Readings by id; the first is the default. */
  readings: Readonly<Record<string, string>>;
  defaultReading: string;
}

const r = (id: string, sections: readonly string[], digest: number | undefined, question: string, readings: Record<string, string>): Ruling => ({
  id,
  sections,
  ...(digest !== undefined ? { digest } : {}),
  question,
  readings,
  defaultReading: Object.keys(readings)[0]!,
});

/** Every ruling this code knows, defaults first in each. */
export const RULINGS: readonly Ruling[] = [
  r('mud-mf', ['20.22'], 1, 'Mud says "reduce the MF by one" and then that a 5 becomes 3: which?', {
    'minus-one': 'Mud takes 1 MP off the MF, as the rule sentence says (5 becomes 4)',
    'halve-up': 'Mud halves the MF rounding up, which turns 5 into 3 as the example does (4 into 2, 3 into 2)',
  }),
  r('mf-order', ['8.2', '13.85', '14.6', '20.2'], 2, 'In what order do weather, supply and demoralization change the MF?', {
    'subtract-then-halve': 'first every "lose 1 MP" (Mud, Unsupplied L1), then every halving (Snow rounding up, Unsupplied L2 and Demoralized rounding down), then the floor of 1 (8.2)',
    'as-listed': 'in the order 8.2 lists them: weather, then supply, then demoralization; the floor of 1 last',
  }),
  r('ex-tie', ['13.7'], 3, 'EX eliminates "the smaller force": measured how, and what of a tie?', {
    'tie-both': 'compare printed factors (the attacker\'s attack, the defender\'s defense, 13.71); on a tie both forces are eliminated',
    'defender-smaller': 'compare printed factors; on a tie the defender counts as the smaller force',
  }),
  r('entrench-owner', ['15.2', '13.9'], 4, 'Does an entrenchment belong to the units or to the hex, and does it outlast them?', {
    unit: 'an entrenchment is the unit\'s (15.24 counts units): it is lost when the unit moves, retreats or advances',
  }),
  r('lone-fort', ['13.651', '13.9'], 5, 'Can a fort with no units in it block movement, and who owns it after a retreat with no advance?', {
    'must-attack': 'an enemy fort alone in a hex stops movement into the hex and is taken by an attack on it (13.651: automatic DE); after a retreat with no advance it stays with the side that controls the hex',
  }),
  r('rail-railhead', ['9.0', '10.0'], 6, 'May units rail beyond their own railheads?', {
    'own-side': 'rail only through rail hexes of the side\'s own gauge (up to its railheads, advanced as 10.2-10.4 say) that it controls, never beyond its railheads',
  }),
  r('limited-overload', ['14.4'], 8, 'Who loses supply when more units trace to limited sources than they can feed?', {
    // The text does not say. The owner's choice would be a decision for every over-full source in every
    // Supply Phase (and again in the Administrative Phase), asked of bots and players for a case that
    // rarely arises and is rarely close; this reading is deterministic, needs one search per limited
    // source and only when some unit does not reach a full source, and feeds the units an owner would
    // usually keep (those near the source), leaving the far ones cut off.
    'nearest-first': 'units that reach a full source (14.3) are fed and use no capacity; for the rest, every (unit, limited source it reaches) pair is served in order of the overland leg of that supply path (0 on rail), then unit number, then the source (home cities by hex number): the unit is fed there if it is not fed yet and the source has room for its corps (halves for non-US divisions and 1-factor artillery); units left over are unsupplied',
  }),
  r('unsupplied-move', ['8.4'], undefined, '8.4 keeps an unsupplied unit from moving farther "from its Supply Source" on the one hex it may always move: which source, measured how?', {
    'nearest-source': 'the nearest hex of any of its side\'s sources (14.3-14.4) as things stand, in hexes: a unit with an unsupplied marker may make the one-hex move its MPs do not pay for only to a hex no farther from it than its own; moves its MPs pay for are not limited; with no source at all nothing limits it',
  }),
  r('vp-supply', ['S3 3.71'], 9, 'Whose supply path counts for the half-VP rule?', {
    'cp-path': 'every one of the 15 places counts ½ when the Central Powers cannot trace a 14.2 path from it',
    'occupant-path': 'a place counts ½ when the side holding it cannot trace a 14.2 path from it',
  }),
  r('s3-ah-morale', ['S3 3.68', '21.1'], 14, 'Does Austria-Hungary roll for War Weariness in S3?', {
    no: 'no: 3.68b lists France, Germany, Britain and Belgium only, and A-H has one late unit on the map',
    yes: 'yes, as any country at war for a year (21.1), starting at DRM 0',
  }),
  r('s3-m-drm', ['S3 3.68c', '21.33'], 14, 'Does an M result, read as R30 in S3, still add +1 to later rolls?', {
    'r30-only': 'no: the result is R30 and nothing else',
    'r30-and-drm': 'yes: it is R30 for the replacements and still an M for the accumulated +1',
  }),
  r('vp-bands', ['S3 3.72'], undefined, 'The bands are whole numbers but a cut-off city scores ½: where do 8½ and 12½ fall?', {
    thresholds: 'read the bands as thresholds: under 7, under 9, under 11, 12 or less, more than 12 (8½ is an Allied Minor, 12½ a CP Major)',
    'round-down': 'drop the half point, then read the bands (12½ is a CP Minor)',
  }),
];

const BY_ID = new Map(RULINGS.map((x) => [x.id, x]));

/** The chosen reading of every ruling, by id. */
export type RulingChoice = Readonly<Record<string, string>>;

/** Defaults of every ruling. */
export const DEFAULT_RULINGS: RulingChoice = Object.fromEntries(RULINGS.map((x) => [x.id, x.defaultReading]));

/**
 * Parse the set-up option `rulings`: `"mud-mf=halve-up,ex-tie=defender-smaller"` or an object
 * `{ "mud-mf": "halve-up" }`. Unknown rulings or readings are refused with the list of valid ones.
 */
export function parseRulings(value: Json | undefined): RulingChoice {
  if (value === undefined || value === null || value === '') return DEFAULT_RULINGS;
  let pairs: [string, string][];
  if (typeof value === 'string') {
    pairs = value.split(',').map((kv) => kv.trim()).filter(Boolean).map((kv) => {
      const [k, v] = kv.split('=');
      return [(k ?? '').trim(), (v ?? '').trim()];
    });
  } else if (typeof value === 'object' && !Array.isArray(value)) {
    pairs = Object.entries(value).map(([k, v]) => [k, String(v)]);
  } else {
    throw new SalientError('BAD_OPTION', `option 'rulings' takes "ruling=reading,..." or an object; got ${JSON.stringify(value)}. Rulings: ${RULINGS.map((x) => x.id).join(', ')}.`);
  }
  const out: Record<string, string> = { ...DEFAULT_RULINGS };
  for (const [k, v] of pairs) {
    const ruling = BY_ID.get(k);
    if (!ruling) throw new SalientError('BAD_OPTION', `option 'rulings': unknown ruling '${k}'. Rulings: ${RULINGS.map((x) => x.id).join(', ')}.`);
    if (!(v in ruling.readings)) throw new SalientError('BAD_OPTION', `option 'rulings': ruling '${k}' has no reading '${v}'. Readings: ${Object.keys(ruling.readings).join(', ')}.`);
    out[k] = v;
  }
  return out;
}

/** The reading in force for ruling `id`. */
export const reading = (choice: RulingChoice, id: string): string => choice[id] ?? BY_ID.get(id)?.defaultReading ?? '';
