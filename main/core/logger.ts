// The app log: one line per entry in $AGENVOY_HOME/desktop/logs/app.log, redacted before it is written.
import fs from 'node:fs';
import path from 'node:path';
import type { LogOptions, ToolLogger } from '../../tools/sdk/types';
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

  info(message: string, fields?: Record<string, unknown>, options?: LogOptions): void {
    this.write('INFO', message, fields, options);
  }

  warn(message: string, fields?: Record<string, unknown>, options?: LogOptions): void {
    this.write('WARN', message, fields, options);
  }

  error(message: string, fields?: Record<string, unknown>, options?: LogOptions): void {
    this.write('ERROR', message, fields, options);
  }

  private write(level: Level, message: string, fields?: Record<string, unknown>, options?: LogOptions): void {
    // The entry's own fields come right after the message, the logger's fixed ones (tool, call) after them, so a
    // documented line such as `running name=<name> elapsed=<Y>s/<Z>s` reads as written.
    const context = options?.context === false ? {} : this.fields;
    const own = fields ?? {};
    const all = [
      ...Object.entries(own),
      ...Object.entries(context).filter(([key]) => !Object.hasOwn(own, key)),
    ];
    // Values are redacted before they are quoted and their line breaks escaped, so a secret spanning lines is
    // still recognised; the whole line is redacted once more after formatting.
    const rest = all
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => `${key}=${formatValue(this.redactor.redactDeep(plain(value)))}`)
      .join(' ');
    const line = this.redactor.redact(
      `${new Date().toISOString()} ${level} ${this.redactor.redact(message)}${rest ? ' ' + rest : ''}`.replace(
        /\n/g,
        '\\n',
      ),
    );
    if (this.file) fs.appendFileSync(this.file, line + '\n');
    this.echo?.(line);
  }
}

// An Error logs as its message (redactDeep would turn it into {}).
function plain(value: unknown): unknown {
  return value instanceof Error ? value.message : value;
}

function formatValue(value: unknown): string {
  if (typeof value === 'string') return /[\s"=]/.test(value) || value === '' ? JSON.stringify(value) : value;
  return JSON.stringify(value) ?? 'undefined';
}
