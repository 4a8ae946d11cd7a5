// The regular-expression engine Ajv compiles schema patterns with (docs/security.md, "A hostile MCP server"): RE2's
// linear-time matching instead of JavaScript's backtracking. A tool's schema comes from a stranger (an MCP server, a
// tool.json), and a pattern such as `^(a+)+$` took seconds of the main thread for 28 characters, doubling with each
// more, while nothing else of the app ran. RE2 (re2js, pure JavaScript) loads with the first pattern compiled.
import { createRequire } from 'node:module';
import type * as Re2Module from 're2js';

const requireCjs = createRequire(import.meta.url);

/** What Ajv needs of a compiled pattern. */
export interface LinearPattern {
  test(text: string): boolean;
  toString(): string;
}

/**
 * Compiles `pattern` for Ajv's `code.regExp` option; throws, as RegExp does, for one that is not a regular
 * expression. RE2 has no lookaround or backreferences: a pattern that needs
 * them cannot be matched in linear time, so it is not checked (it matches everything). Checking arguments is a
 * courtesy to the model; the tool itself still checks what it gets.
 */
export function linearRegExp(pattern: string, flags: string): LinearPattern {
  // Not a regular expression at all: the schema is broken, as before (compiling one never runs it).
  new RegExp(pattern, flags);
  const { RE2JS } = requireCjs('re2js') as typeof Re2Module;
  const shown = `/${pattern}/${flags}`;
  let compiled: InstanceType<typeof RE2JS>;
  try {
    compiled = RE2JS.compile(pattern, flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0);
  } catch {
    return { test: () => true, toString: () => `${shown} (not checked)` };
  }
  return { test: (text) => compiled.matcher(text).find(), toString: () => shown };
}
// Ajv names the engine in the code it generates for standalone validators (never used here, but required).
linearRegExp.code = 'linearRegExp';
