/**
 * The game catalog now lives in @salient/catalog; its JSON helpers re-exported for the CLI's commands,
 * from the entry that imports no game (the registry imports them all).
 */
export * from '@salient/catalog/lazy';
