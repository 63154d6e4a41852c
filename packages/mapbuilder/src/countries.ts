/**
 * Modern Natural Earth countries (ISO 3166 numeric ids, as world-atlas writes them) to the states of
 * 1914, before the hand-made edits of borders-1918.json. Codes are two letters; where an ISO code
 * would mislead (Germany, Serbia, Bulgaria, the Ottoman Empire ...) the map uses its own.
 */

/** Names of the codes the map uses. */
export const COUNTRY_NAMES: Readonly<Record<string, string>> = {
  AH: 'Austria-Hungary',
  AL: 'Albania',
  BE: 'Belgium',
  BU: 'Bulgaria',
  CH: 'Switzerland',
  DK: 'Denmark',
  ES: 'Spain',
  FR: 'France',
  GB: 'Britain',
  GE: 'Germany',
  GR: 'Greece',
  IT: 'Italy',
  LU: 'Luxembourg',
  MN: 'Montenegro',
  NL: 'Netherlands',
  NO: 'Norway',
  OT: 'Other (outside the 1914 European states)',
  PE: 'Persia',
  PT: 'Portugal',
  RO: 'Rumania',
  RU: 'Russia',
  SE: 'Sweden',
  SR: 'Serbia',
  TU: 'Ottoman Empire',
};

/** ISO numeric id -> 1914 code. Anything not listed becomes OT. */
const BY_ISO: Readonly<Record<string, string>> = {
  '250': 'FR', '492': 'FR', '056': 'BE', '442': 'LU', '528': 'NL', '756': 'CH', '438': 'CH',
  '276': 'GE', '040': 'AH', '348': 'AH', '203': 'AH', '703': 'AH', '705': 'AH', '191': 'AH', '070': 'AH',
  '380': 'IT', '674': 'IT', '336': 'IT', '434': 'IT', '208': 'DK', '752': 'SE', '578': 'NO',
  '246': 'RU', '233': 'RU', '428': 'RU', '440': 'RU', '112': 'RU', '804': 'RU', '498': 'RU', '643': 'RU',
  '616': 'RU', '268': 'RU', '051': 'RU', '031': 'RU', '398': 'RU',
  '642': 'RO', '100': 'BU', '688': 'SR', '807': 'SR', '499': 'MN', '008': 'AL', '300': 'GR',
  '792': 'TU', '760': 'TU', '422': 'TU', '368': 'TU', '376': 'TU', '400': 'TU', '275': 'TU',
  '196': 'GB', '826': 'GB', '372': 'GB', '470': 'GB', '818': 'GB', '292': 'GB',
  '724': 'ES', '020': 'ES', '620': 'PT', '012': 'FR', '788': 'FR', '504': 'FR', '364': 'PE',
};

/** 1914 code of a world-atlas feature (`id` ISO numeric, `name` for the few without one, e.g. Kosovo). */
export function code1914(id: string | number | undefined, name: string | undefined): string {
  if (id !== undefined && BY_ISO[String(id).padStart(3, '0')]) return BY_ISO[String(id).padStart(3, '0')]!;
  if (name === 'Kosovo') return 'SR';
  if (name === 'N. Cyprus' || name === 'Cyprus U.N. Buffer Zone') return 'GB';
  if (name === 'Somaliland') return 'OT';
  return 'OT';
}
