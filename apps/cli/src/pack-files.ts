/** The game catalog now lives in @salient/catalog; re-exported for the CLI's commands. */
export * from '@salient/catalog';
