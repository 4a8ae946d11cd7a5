// The app log: one line per entry in $AGENVOY_HOME/desktop/logs/app.log, redacted before it is written.
import fs from 'node:fs';
import path from 'node:path';
import type { ToolLogger } from '../../tools/types';
import type { Redactor } from './redactor';

type Level = 'INFO' | 'WARN' | 'ERROR';

/** A logger writing `time LEVEL message key=value…` lines; a child adds fixed fields. */
export class AppLogger implements ToolLogger {
  constructor(
    private readonly file: string | null,
    private readonly redactor: Redactor,
    private readonly fields: Record<string, unknown> = {},
    private readonly echo: ((line: string) => void) | null = null,
    ensureDir = true,
  ) {
    // Only the root logger creates the folder: child() runs on every tool call.
    if (file && ensureDir) fs.mkdirSync(path.dirname(file), { recursive: true });
  }

  /** A logger for the log directory `dir` (file app.log). */
  static inDir(dir: string, redactor: Redactor, echo: ((line: string) => void) | null = null): AppLogger {
    return new AppLogger(path.join(dir, 'app.log'), redactor, {}, echo);
  }

  /** A logger that adds `fields` to every line. */
  child(fields: Record<string, unknown>): AppLogger {
    return new AppLogger(this.file, this.redactor, { ...this.fields, ...fields }, this.echo, false);
  }

  info(message: string, fields?: Record<string, unknown>): void {
    this.write('INFO', message, fields);
  }

  warn(message: string, fields?: Record<string, unknown>): void {
    this.write('WARN', message, fields);
  }

  error(message: string, fields?: Record<string, unknown>): void {
    this.write('ERROR', message, fields);
  }

  private write(level: Level, message: string, fields?: Record<string, unknown>): void {
    const all = { ...this.fields, ...fields };
    const rest = Object.entries(all)
      .map(([k, v]) => `${k}=${formatValue(v)}`)
      .join(' ');
    const line = this.redactor.redact(
      `${new Date().toISOString()} ${level} ${message}${rest ? ' ' + rest : ''}`.replace(/\n/g, '\\n'),
    );
    if (this.file) fs.appendFileSync(this.file, line + '\n');
    this.echo?.(line);
  }
}

function formatValue(value: unknown): string {
  if (typeof value === 'string') return /[\s"=]/.test(value) ? JSON.stringify(value) : value;
  if (value instanceof Error) return JSON.stringify(value.message);
  return JSON.stringify(value) ?? 'undefined';
}
