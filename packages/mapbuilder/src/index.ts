/**
 * @salient/mapbuilder: build-time tool that writes approximate hex maps ("salient.hexmap/1" JSON, a
 * report and an SVG) from public-domain geography and a rulebook's hex ids. Games never import it.
 */
export { buildEmpiresAlliances, EA_PATHS, type BuildInputs, type BuildResult, type HexInfo } from './build.ts';
export { readAnchors, CERTAINTY_WEIGHT, type Anchor, type AnchorsFile, type Certainty } from './anchors.ts';
export { compareLayouts, fitTransform, europeProjection, type HexTransform, type LayoutVerdict, type FitStats } from './transform.ts';
export { formatMapJson, formatMapMd, formatSvg } from './write.ts';
export { buildFiles, findGeodata, REPO_ROOT } from './cli.ts';
