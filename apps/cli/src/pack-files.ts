/**
 * The game catalog now lives in @salient/catalog; its pack-directory helpers re-exported for the CLI's
 * commands, from the entry that imports no game (the registry imports them all).
 */
export * from '@salient/catalog/lazy';
