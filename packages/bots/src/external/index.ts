/** External bots: other programs playing through docs/bot-protocol.md, over stdin/stdout or HTTP. */
export { externalBotFactory, type ExternalBot } from './external-bot.ts';
export { splitCommandLine } from './command-line.ts';
export { PROTOCOL_VERSION, MAX_ANSWER_BYTES } from './protocol.ts';
export { watchBotProcesses, killBotGroup, botEnvironment } from './process-transport.ts';
export {
  parseBotsFile,
  loadBotsFile,
  loadConfiguredBots,
  registeredBot,
  refusedBot,
  refusedPack,
  NO_EXTERNAL_BOTS,
  BOTS_FILE_ENV,
  type ExternalBots,
  type RegisteredBot,
} from './bots-file.ts';
