/** Terminal output helpers shared by the commands. */
import Table from 'cli-table3';

/** Write one line to stdout. */
export function say(line = ''): void {
  process.stdout.write(line + '\n');
}

/**
 * A plain table (no colours, so piped output and tests read the same as the terminal). `widths` caps
 * columns (null: fit the content); long text in a capped column wraps at word boundaries.
 */
export function table(head: string[], rows: string[][], widths?: Array<number | null>): string {
  const t = new Table({ head, style: { head: [], border: [] }, wordWrap: true, ...(widths ? { colWidths: widths } : {}) });
  t.push(...rows);
  return t.toString();
}
