// Plain-text table of tools for `agenvoy tools list`.
import type { ToolJson } from '../core/registry';
import { humanDuration } from './human-text';
import { terminalText } from './terminal-text';

/**
 * One line per tool: name, source, flags, limit, notes (broken, not offered headless, lint errors and guidance by
 * code, warnings); `agenvoy tools lint` prints each finding's message.
 */
export function formatToolTable(tools: Array<ToolJson & { offeredHeadless?: boolean }>): string {
  const rows = tools.map((t) => [
    t.name,
    t.origin ? `${t.source}:${t.origin}` : t.source,
    Object.entries(t.flags)
      .filter(([, on]) => on)
      .map(([flag]) => flag)
      .join(',') || '-',
    // A background tool's start returns at once: its task's limit is the one that matters.
    t.taskTimeoutMs !== undefined
      ? `task ${humanDuration(t.taskTimeoutMs)}`
      : t.timeoutMs === null
        ? 'none'
        : humanDuration(t.timeoutMs),
    [
      // A broken tool says only that: its flags and limits no longer matter, it cannot be called.
      t.broken ? `BROKEN at ${t.broken.step}: ${oneLine(t.broken.reason)}` : '',
      t.offeredHeadless === false && !t.broken ? 'not in agenvoy chat' : '',
      t.trusted === false ? 'untrusted workspace tool: asks every call, no secrets' : '',
      t.writable && t.writable.length > 0 ? `writes ${t.writable.join(', ')}` : '',
      lintNote(t.lint, 'error'),
      lintNote(t.lint, 'guidance'),
      t.warnings && t.warnings.length > 0 ? t.warnings.map(oneLine).join('; ') : '',
    ]
      .filter(Boolean)
      .join('; '),
  ]);
  // A folder name, a reason or a warning may come from a hostile repository or server: no control sequence of theirs
  // reaches the terminal (terminal-text.ts).
  for (const row of rows) row.forEach((cell, i) => (row[i] = terminalText(cell)));
  const header = ['NAME', 'SOURCE', 'FLAGS', 'TIMEOUT', ''];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n') + '\n';
}

// A reason or warning from outside may hold newlines; a table row must stay one line.
function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 300 ? `${flat.slice(0, 300)}…` : flat;
}

// The findings of one level, by code: `2 lint guidance (R2_WHEN_ALTERNATIVE, R3_EXAMPLE)`; '' when there are none.
function lintNote(lint: ToolJson['lint'], level: 'error' | 'guidance'): string {
  const codes = [...new Set(lint.filter((f) => f.level === level).map((f) => f.code))];
  if (codes.length === 0) return '';
  const count = lint.filter((f) => f.level === level).length;
  return `${count} lint ${level === 'error' ? (count === 1 ? 'error' : 'errors') : 'guidance'} (${codes.join(', ')})`;
}
