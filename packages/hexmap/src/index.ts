/**
 * @salient/hexmap: hex geometry, an immutable map model and graph searches shared by the hex-and-counter
 * games. No game rules live here: games pass costs and blocking rules as small callbacks over hex
 * indices. No randomness, clocks or I/O (file reading is in `@salient/hexmap/file`).
 */
export { rrccSkewed, rrccOffsetRows, ccrrFlatOddQ, SCHEMES, schemeByName, type HexScheme, type Orientation, type PrintedCoord } from './scheme.ts';
export { HexGrid, POINTY_DIRECTIONS, FLAT_DIRECTIONS, type Bounds } from './grid.ts';
export {
  HEXMAP_FORMAT,
  SIDE_FEATURE_NAMES,
  hexMapJsonSchema,
  type HexMapJson,
  type HexMapJsonInput,
  type HexJson,
  type HexsideJson,
  type CityJson,
  type SideFeatureName,
} from './map-json.ts';
export { HexMap, HexFlag, SideFeature, SIDE_FEATURE_BITS, NO_TERRAIN, checkHexMap, loadHexMap, type City, type Country, type HexMapCheck, type LoadOptions } from './map.ts';
export { type HexTest, hexTest } from './hex-test.ts';
export { ReachSearch, type MoveRules } from './reach.ts';
export { zocMask, type ZocOptions } from './zoc.ts';
export { RailSearch, RailCapacity, railNetworks } from './rail.ts';
export { SupplySearch, type SupplyRules } from './supply.ts';
export { syntheticMapJson, hash32, type SyntheticMapOptions } from './synthetic.ts';
export { HexHeap } from './heap.ts';
export { hexBoardLayout, type HexBoardLayoutOptions } from './board-layout.ts';
