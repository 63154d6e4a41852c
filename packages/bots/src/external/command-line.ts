/**
 * Splitting a `cmd:` bot's command line into argv without a shell: words are separated by spaces;
 * '...' keeps everything inside as is, "..." too except that \" and \\ stand for " and \; outside
 * quotes a backslash keeps the next character. No variables, globs, pipes or redirections.
 */
import { SalientError } from '@salient/engine';

export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '\\' && (line[i + 1] === '"' || line[i + 1] === '\\')) word += line[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) throw new SalientError('BAD_ARGUMENT', `Bot command line '${line}' has an unclosed ${quote} quote; close it.`);
  if (inWord) words.push(word);
  if (words.length === 0) throw new SalientError('BAD_ARGUMENT', `Bot spec 'cmd:${line}' has no command. Write it as cmd:<program> <arguments>, e.g. cmd:python3 examples/bots/random_bot.py.`);
  return words;
}
