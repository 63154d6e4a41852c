#!/usr/bin/env node
// A random bot for Salient's external bot protocol (docs/bot-protocol.md), Node standard library only.
// Reads one JSON message per line on stdin, answers one per line on stdout; logs go to stderr.
// Run it in a match: npx salient play --seat Axis="cmd:node examples/bots/random-bot.mjs"
import { createInterface } from 'node:readline';

const NAME = 'example-random-js';
const VERSION = '1';

/** mulberry32: a small seeded generator, so the same seat plays the same way every time. */
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a hash of a string, as the seed. */
function hash(text) {
  let h = 0x811c9dc5;
  for (const c of Buffer.from(text, 'utf8')) h = Math.imul(h ^ c, 0x01000193) >>> 0;
  return h;
}

let random = generator(0);
const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (line.trim() === '') continue;
  const msg = JSON.parse(line);
  if (msg.type === 'hello') {
    random = generator(hash(msg.seat));
    send({ type: 'hello', name: NAME, version: VERSION, games: ['*'] });
  } else if (msg.type === 'decide') {
    const index = Math.floor(random() * msg.options.length);
    send({ type: 'choice', index });
  } else if (msg.type === 'end') {
    break;
  }
}
