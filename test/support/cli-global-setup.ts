/**
 * Vitest global set-up: builds the CLI bundle once for the whole run (see cli-bundle.ts) and hands its
 * path to the test files, which read it with `salientEntry()` (salient-cli.ts).
 */
import type { TestProject } from 'vitest/node';
import { buildCliBundle } from './cli-bundle.ts';

export default async function setup(project: TestProject): Promise<void> {
  project.provide('salientCliBundle', await buildCliBundle());
}
