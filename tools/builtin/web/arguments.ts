// Argument readers for the web tools: each defends against a missing or mistyped value and names the parameter.
import { ToolError } from '../../sdk/types';

/** A bad-argument error naming the parameter. */
export function invalidArgument(name: string, message: string): ToolError {
  return new ToolError('invalid_arguments', `\`${name}\` ${message}`, { parameter: name });
}

/** A trimmed string argument; '' when absent and optional, an error when absent and required. */
export function stringArg(args: Record<string, unknown>, name: string, required = false): string {
  const value = args[name];
  if (value === undefined || value === null) {
    if (required) throw invalidArgument(name, 'is required');
    return '';
  }
  if (typeof value !== 'string') throw invalidArgument(name, `must be a string, not ${typeof value}`);
  const trimmed = value.trim();
  if (required && trimmed === '') throw invalidArgument(name, 'must not be empty');
  return trimmed;
}

/** A boolean argument with its default. */
export function booleanArg(args: Record<string, unknown>, name: string, fallback: boolean): boolean {
  const value = args[name];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean') throw invalidArgument(name, 'must be true or false');
  return value;
}

/** An integer argument within [min, max], with its default. */
export function integerArg(
  args: Record<string, unknown>,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const value = args[name];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw invalidArgument(name, `must be a whole number from ${min} to ${max}`);
  }
  return value;
}

/** One of the allowed values, with its default. */
export function enumArg<T extends string>(
  args: Record<string, unknown>,
  name: string,
  allowed: readonly T[],
  fallback: T,
): T {
  const value = args[name];
  if (value === undefined || value === null || value === '') return fallback;
  const match = allowed.find(
    (option) => typeof value === 'string' && option.toLowerCase() === value.toLowerCase(),
  );
  if (!match) throw invalidArgument(name, `must be one of ${allowed.map((v) => `"${v}"`).join(', ')}`);
  return match;
}

/** A timeout in seconds as ms: positive, default when absent, clamped to `maxSeconds`. */
export function timeoutArg(
  args: Record<string, unknown>,
  name: string,
  defaultSeconds: number,
  maxSeconds: number,
): number {
  const value = args[name];
  if (value === undefined || value === null) return defaultSeconds * 1000;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw invalidArgument(name, `must be a number of seconds above 0 (at most ${maxSeconds})`);
  }
  return Math.min(value, maxSeconds) * 1000;
}

/** An absolute http(s) URL; `shown` is what error messages quote (a template, never a resolved secret). */
export function urlArg(text: string, name: string, shown = text): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalidArgument(
      name,
      `must be an absolute http or https URL, e.g. "https://example.com/page"; got "${shown}"`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalidArgument(name, `must use http or https, not ${url.protocol.replace(/:$/, '')}`);
  }
  return url;
}
