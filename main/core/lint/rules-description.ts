// R2: the description is What / When / Precondition in 2 or 3 short lines, plain text, no output schema.
import { lintFinding } from './codes';
import { findMarkdown } from './markdown';
import { charCount, checkedText, plural, quote } from './text';
import type { LintFinding } from './types';

/** Fewest characters a description may have, not counting newlines. */
export const MIN_DESCRIPTION_LENGTH = 60;

/** Most characters a description may have, not counting newlines. */
export const MAX_DESCRIPTION_LENGTH = 200;

/** The trigger the When line must contain. */
export const TRIGGER = /\b(?:use\s+(?:for|when|to)|when)\b/i;

const SHAPE =
  'write 2 or 3 lines separated by \\n: What (the core action) / When (the trigger and the alternative, ' +
  'e.g. "use for X; Y for Z") / Precondition (the key limitation, omitted when there is none)';

// A dumped output schema: "Returns: {", a JSON-like object with quoted keys, a TypeScript-like type
// literal, or the words "output schema".
const OUTPUT_SCHEMA: readonly RegExp[] = [
  /\b(?:returns?|output|result|response)\s*:\s*[[{]/i,
  /\{\s*(?:"[^"\n]*"|'[^'\n]*')\s*:/,
  /\{\s*[A-Za-z_$][\w$]*\??\s*:\s*(?:string|number|integer|boolean|object|array|null|any)\b/i,
  /\boutput\s+schema\b/i,
];

// Words that take space without telling the model anything. "This tool …" counts only at a line's start:
// "use when you need a tool that …" is a fine When line.
const FILLER =
  /^\s*(?:this|a) tool\b|\b(?:allows you to|lets you|helps you|enables you to|simply|basically|very|really|please|in order to|powerful|easily|seamlessly)\b/gim;

// Signs that the When line names an alternative: a ";" (use for X; Y for Z), a sibling tool name, or
// words that compare.
const ALTERNATIVE =
  /;|\b[a-z][a-z0-9]*_[a-z0-9_]*[a-z0-9]\b|\b(?:instead|rather than|not for|prefer|otherwise|alternative)\b/i;

/** R2 findings for a tool description. */
export function lintDescription(description: string): LintFinding[] {
  if (description.trim() === '') return [lintFinding('R2_EMPTY', `description is empty: ${SHAPE}`)];
  // \r\n counts as one newline so a file saved on Windows reads the same.
  const lines = description.split(/\r?\n/);
  const findings: LintFinding[] = [];

  if (lines.length < 2 || lines.length > 3) {
    findings.push(lintFinding('R2_LINE_COUNT', `description has ${plural(lines.length, 'line')}: ${SHAPE}`));
  }
  const empty = lines.flatMap((line, i) => (line.trim() === '' ? [i + 1] : []));
  if (empty.length > 0) {
    findings.push(
      lintFinding(
        'R2_EMPTY_LINE',
        `description ${empty.length === 1 ? 'line' : 'lines'} ${empty.join(', ')} ${empty.length === 1 ? 'is' : 'are'} ` +
          `empty: every line must ` +
          `carry text; drop blank lines and a trailing newline`,
      ),
    );
  }

  const length = charCount(lines.join(''));
  if (length < MIN_DESCRIPTION_LENGTH) {
    findings.push(
      lintFinding(
        'R2_TOO_SHORT',
        `description is ${plural(length, 'character')} (not counting newlines); write at least ${MIN_DESCRIPTION_LENGTH}: ` +
          `say what the tool does and when to use it rather than another tool`,
      ),
    );
  } else if (length > MAX_DESCRIPTION_LENGTH) {
    findings.push(
      lintFinding(
        'R2_TOO_LONG',
        `description is ${length} characters (not counting newlines); cut it to at most ${MAX_DESCRIPTION_LENGTH}: ` +
          `drop filler and move details into the parameter descriptions`,
      ),
    );
  }

  // With a single line there is no When line: the trigger is then looked for anywhere, so a one-line
  // description gets R2_LINE_COUNT alone when it already has a trigger.
  const whenLine = checkedText((lines.length >= 2 ? lines[1] : description) ?? '');
  if (!TRIGGER.test(whenLine)) {
    findings.push(
      lintFinding(
        'R2_NO_TRIGGER',
        `description ${lines.length >= 2 ? 'line 2 has no trigger' : 'has no When line'}: start line 2 with ` +
          `"Use when …", "Use for …" or "Use to …" and name the alternative (e.g. "Use for X; use other_tool for Z")`,
      ),
    );
  } else if (lines.length >= 2 && !ALTERNATIVE.test(whenLine)) {
    findings.push(
      lintFinding(
        'R2_NO_ALTERNATIVE',
        `description line 2 gives a trigger but no alternative: add when another tool fits better ` +
          `(e.g. "; use fetch_page for a single URL")`,
      ),
    );
  }

  // Pattern checks read a bounded prefix: the text comes from outside, and R2_TOO_LONG already flags the rest.
  const checked = checkedText(description);
  const markdown = findMarkdown(checked);
  if (markdown.length > 0) {
    findings.push(
      lintFinding(
        'R2_MARKDOWN',
        `description contains markdown ${markdown.map((hit) => `${hit.kind} ${quote(hit.text)}`).join(', ')}: ` +
          `write plain text; the model reads it raw (backquotes for code are fine)`,
      ),
    );
  }

  const schema = OUTPUT_SCHEMA.map((pattern) => pattern.exec(checked)).find((match) => match !== null);
  if (schema) {
    findings.push(
      lintFinding(
        'R2_OUTPUT_SCHEMA',
        `description dumps an output schema (${quote(schema[0])}): remove it; the result speaks for itself, ` +
          `and one plain phrase in the What line (e.g. "returns matching titles and URLs") is enough`,
      ),
    );
  }

  const fillers = [...new Set([...checked.matchAll(FILLER)].map((match) => match[0].trim().toLowerCase()))];
  if (fillers.length > 0) {
    findings.push(
      lintFinding(
        'R2_FILLER',
        `description has filler (${fillers.map((word) => `"${word}"`).join(', ')}): cut it and start ` +
          `with the action (e.g. "Convert …" rather than "This tool allows you to convert …")`,
      ),
    );
  }
  return findings;
}
