#!/usr/bin/env node
// `salient` on the PATH (npm link / npx): registers tsx from this package's own dependencies, so the
// TypeScript entry runs wherever the command is started, then hands over to it.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
