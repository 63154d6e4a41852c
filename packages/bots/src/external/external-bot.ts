/**
 * External bots: a program speaking docs/bot-protocol.md over stdin/stdout (`cmd:<command line>`) or
 * HTTP (`http://host:port/path`, `https://...`), or one of those registered by the operator in a bots
 * file and named `ext:<name>` (see `bots-file.ts`). The spec stays the seat's record; the name and
 * version recorded with the result come from the bot's handshake.
 */
import { SalientError } from '@salient/engine';
import type { Bot, BotAnswer, BotContext, BotEnding, BotFactory, DecisionRequest } from '@salient/runner';
import { BOTS_FILE_ENV, NO_EXTERNAL_BOTS, registeredBot, type ExternalBots } from './bots-file.ts';
import { splitCommandLine } from './command-line.ts';
import { HttpTransport } from './http-transport.ts';
import { ProcessTransport } from './process-transport.ts';
import { checkChoice, checkHello, decideMessage, endMessage, helloIdentity, helloMessage, parseAnswerText, type BotIdentity } from './protocol.ts';
import type { Transport } from './transport.ts';

/** Handshake budget when the bot is used outside `runMatch` (which gives its own). */
const HELLO_TIMEOUT_MS = 10_000;
/** Slack on an HTTP request past the decision's deadline; the runner keeps the real time. */
const HTTP_SLACK_MS = 1000;
/**
 * After a strike the runner waits for the late answer as long again as the deadline, at least its
 * handshake timeout (10 s by default): an HTTP request is cut off after that much, as a backstop.
 */
const LATE_GRACE_MS = 10_000;

/** A bot played by another program. `pid` is the child's, for a `cmd:` bot. */
export interface ExternalBot extends Bot {
  readonly pid: number | undefined;
}

/**
 * A factory for the external bot `spec` names, or undefined when `spec` is not external. The
 * command line is checked now; the process is started (or the URL first called) by the bot's `start`.
 * `ext:<name>` is looked up in `external` (an unknown name is `UNKNOWN_BOT`). Whether this spec may be
 * played at all (it came from the queue, say) is decided before, by `refusedBot`.
 */
export function externalBotFactory(spec: string, external: ExternalBots = NO_EXTERNAL_BOTS): BotFactory | undefined {
  const s = spec.trim();
  if (s.startsWith('ext:')) {
    const name = s.slice(4).trim();
    const bot = registeredBot(s, external);
    if (!bot) {
      const names = Object.keys(external.bots).map((n) => `ext:${n}`);
      throw new SalientError(
        'UNKNOWN_BOT',
        external.source
          ? `Unknown registered bot '${name}' (${s}): the bots file ${external.source} registers ${names.length ? names.join(', ') : 'none'}. Register it there under bots:, or fix the name.`
          : `Unknown registered bot '${name}' (${s}): no bots file is configured. Name one with ${BOTS_FILE_ENV}=FILE or --bots FILE (docs/bot-protocol.md, "Registered bots").`,
      );
    }
    if ('url' in bot) return (ctx) => new RemoteBot(s, ctx, () => new HttpTransport(bot.url));
    return (ctx) => new RemoteBot(s, ctx, () => new ProcessTransport(bot.command, `registered bot ${s}: ${JSON.stringify(bot.command)}`, { cwd: bot.cwd, env: bot.env }));
  }
  if (s.startsWith('cmd:')) {
    const argv = splitCommandLine(s.slice(4));
    return (ctx) => new RemoteBot(s, ctx, () => new ProcessTransport(argv, `bot command '${s.slice(4).trim()}'`));
  }
  if (s.startsWith('http://') || s.startsWith('https://')) {
    try {
      new URL(s);
    } catch {
      throw new SalientError('BAD_ARGUMENT', `Bot URL '${s}' is not a valid URL. Write it as http://host:port/path.`);
    }
    return (ctx) => new RemoteBot(s, ctx, () => new HttpTransport(s));
  }
  return undefined;
}

class RemoteBot implements ExternalBot {
  private transport: Transport | undefined;
  private identity: BotIdentity | undefined;
  /** The handshake succeeded: the bot is owed an `end`. */
  private greeted = false;
  private started: Promise<void> | undefined;
  private decisions = 0;
  private ended = false;

  constructor(
    private readonly spec: string,
    private readonly ctx: BotContext,
    private readonly open: () => Transport,
  ) {}

  get name(): string {
    return this.identity?.name ?? this.spec;
  }

  get version(): string {
    return this.identity?.version ?? 'unknown';
  }

  get pid(): number | undefined {
    return this.transport?.pid;
  }

  start(signal: AbortSignal): Promise<void> {
    return (this.started ??= this.handshake(signal));
  }

  private async handshake(signal: AbortSignal): Promise<void> {
    this.transport = this.open();
    const text = await this.transport.request(helloMessage(this.ctx), 'hello', signal, HELLO_TIMEOUT_MS);
    const answer = parseAnswerText(text, 'hello');
    // Recorded before the checks, so a bot refused for its games is still named as it said.
    this.identity = helloIdentity(answer);
    checkHello(answer, this.ctx.game.id);
    this.greeted = true;
  }

  async decide(request: DecisionRequest, signal: AbortSignal): Promise<BotAnswer> {
    await this.start(signal);
    const id = this.decisions++;
    const deadline = request.clock ? lateBackstop(request.clock.decisionMs + request.clock.bankMs) : HELLO_TIMEOUT_MS;
    const text = await this.transport!.request(decideMessage(id, request), `decide ${id}`, signal, deadline);
    return checkChoice(parseAnswerText(text, `decide ${id}`), request);
  }

  async idle(): Promise<void> {
    await this.transport?.idle();
  }

  async close(ending?: BotEnding): Promise<void> {
    const t = this.transport;
    if (!t) return;
    if (this.greeted && !this.ended) {
      this.ended = true;
      await t.notify(endMessage(ending, this.ctx.powers));
    }
    await t.close();
  }
}

/** How long an HTTP decide may stay open: its deadline, then the runner's wait for a late answer, then slack. */
function lateBackstop(deadlineMs: number): number {
  return deadlineMs + Math.max(deadlineMs, LATE_GRACE_MS) + HTTP_SLACK_MS;
}
