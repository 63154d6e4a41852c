#!/usr/bin/env node
// `salient` on the PATH (npx salient, npm link): registers tsx (a dependency of this package) so the
// TypeScript entry runs wherever the command is started, then hands over to it.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
