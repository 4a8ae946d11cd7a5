// Replaces every secret value seen in this process with `[redacted:KEY]` (SPEC §9).

/** Holds the secret values read or written in this process and scrubs them from text. */
export class Redactor {
  private readonly values = new Map<string, string>();
  private pattern: RegExp | null = null;

  /** Remembers a secret value under its key name; values shorter than 4 characters are too common to scrub. */
  add(key: string, value: string): void {
    if (value.length < 4 || this.values.get(value) === key) return;
    this.values.set(value, key);
    this.pattern = null;
  }

  /** Scrubs every known secret value from `text`. */
  redact(text: string): string {
    if (this.values.size === 0 || text.length === 0) return text;
    this.pattern ??= new RegExp(
      [...this.values.keys()]
        .sort((a, b) => b.length - a.length)
        .map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('|'),
      'g',
    );
    return text.replace(this.pattern, (match) => `[redacted:${this.values.get(match) ?? 'secret'}]`);
  }

  /** Scrubs every string inside a JSON-like value. */
  redactDeep<T>(value: T): T {
    if (this.values.size === 0) return value;
    return JSON.parse(this.redact(JSON.stringify(value) ?? 'null')) as T;
  }
}
