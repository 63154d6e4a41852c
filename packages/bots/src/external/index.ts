/** External bots: other programs playing through docs/bot-protocol.md, over stdin/stdout or HTTP. */
export { externalBotFactory, type ExternalBot } from './external-bot.ts';
export { splitCommandLine } from './command-line.ts';
export { PROTOCOL_VERSION, MAX_ANSWER_BYTES } from './protocol.ts';
export { watchBotProcesses, killBotGroup } from './process-transport.ts';
