// html_template's pinning step, run by the dispatcher before the confirm gate: the template file and every
// workspace template it names in an include, render or layout tag are read once, bounded and inside the
// workspace, and put into the call's arguments. The approval shows that text, and the render uses only it
// (docs/security.md, "html_template"): nothing can be swapped between approval and render.
import path from 'node:path';
import { readWorkspaceText } from '../sdk/safe-read';
import { OUTSIDE_KEY } from './template-worker';
import { ToolError } from '../sdk/types';
import { optionalString } from '../sdk/workspace-path';
import { workspacePath } from '../sdk/workspace-real';

/** The bounds of what one call may pin. */
export const PIN_LIMITS = {
  /** Bytes of one template file. */
  fileBytes: 1024 * 1024,
  /** Bytes of all templates together. */
  totalBytes: 4 * 1024 * 1024,
  /** Template files besides the entry. */
  files: 64,
  // LiquidJS parses in time that grows with the square of a file's tags (50,000 take about a second here),
  // so the count is bounded before a parser ever sees the text.
  /** Tags and outputs in one template. */
  tagsPerFile: 20_000,
  /** Tags and outputs in all templates together. */
  totalTags: 50_000,
} as const;

/** A template and the ones it includes, as the gate shows them and the renderer uses them. */
export interface PinnedTemplate {
  /** The entry template's text. */
  template: string;
  /** Its workspace path with `/` when it came from a file, else ''. */
  name: string;
  /** Every other template it may include, by workspace path with `/`. */
  files: Record<string, string>;
}

// `include 'x'`, `render "x"`, `layout 'x'`, in a tag or on a line of a {% liquid %} tag. A name that is not
// there, or that only looks like a tag in plain text, costs nothing: the render finds only what was pinned.
const REFERENCE = /\b(?:include|render|layout)\s+(?:'([^'\n]*)'|"([^"\n]*)")/g;

/** Reads and bounds the template of an html_template call; `args` hold `template` or `template_file`. */
export async function pinTemplate(workspace: string, args: Record<string, unknown>): Promise<PinnedTemplate> {
  const inline = typeof args.template === 'string' ? args.template : '';
  const fileArg = optionalString(args.template_file, 'template_file');
  if ((inline.trim() === '') === (fileArg === '')) {
    throw new ToolError('invalid_arguments', 'give exactly one of `template` and `template_file`', {
      parameter: 'template',
    });
  }
  const entry = fileArg
    ? await readTemplate(workspace, fileArg, 'template_file')
    : { relative: '', text: inline };
  let totalBytes = Buffer.byteLength(entry.text);
  let totalTags = countTags(entry.text, entry.relative || 'template');
  // A Map: a template named "__proto__" must be a name like any other.
  const files = new Map<string, string>();
  const queue: Array<{ name: string; text: string }> = [{ name: entry.relative, text: entry.text }];
  for (let next = queue.shift(); next; next = queue.shift()) {
    for (const reference of references(next.text)) {
      const candidates = includeCandidates(next.name, reference);
      if (candidates.length === 0) {
        throw new ToolError(
          'outside_workspace',
          `${next.name || 'the template'} includes "${reference}", which is outside the workspace; templates can include only workspace files`,
          { include: reference },
        );
      }
      const found = await firstExisting(
        workspace,
        candidates,
        { reference, parameter: fileArg ? 'template_file' : 'template' },
        (key) => key === entry.relative || files.has(key),
      );
      if (!found) continue;
      if (files.size >= PIN_LIMITS.files)
        throw limitError(`more than ${PIN_LIMITS.files} templates are included`);
      totalBytes += Buffer.byteLength(found.text);
      if (totalBytes > PIN_LIMITS.totalBytes)
        throw limitError(
          `the templates together pass ${PIN_LIMITS.totalBytes.toLocaleString('en-US')} bytes`,
        );
      totalTags += countTags(found.text, found.relative);
      if (totalTags > PIN_LIMITS.totalTags)
        throw limitError(
          `the templates together have more than ${PIN_LIMITS.totalTags.toLocaleString('en-US')} tags`,
        );
      files.set(found.relative, found.text);
      queue.push({ name: found.relative, text: found.text });
    }
  }
  return { template: entry.text, name: entry.relative, files: Object.fromEntries(files) };
}

/** The workspace paths (with `/`) a reference from template `from` may mean, in LiquidJS's lookup order. */
export function includeCandidates(from: string, reference: string): string[] {
  const relative = /^\.\.?\//.test(reference);
  const keys = relative && from ? [resolveKey(path.posix.dirname(from), reference)] : [];
  keys.push(resolveKey('.', reference));
  return [...new Set(keys.filter((key) => key !== OUTSIDE_KEY))];
}

/** Counts the tags and outputs LiquidJS will parse (a {% liquid %} tag's lines each count); throws past the limit. */
export function countTags(text: string, shown: string): number {
  let count = 0;
  // The first `%}` at or after the last search's start (text.length: none left). Searching again from each `{%`
  // was quadratic: unclosed tags before a long run of `%x` froze the app for minutes, before anyone was asked
  // (main/core/template-tag-scan-attack.test.ts). Tags only move forward, so a `%}` found stays the next one
  // until a tag passes it.
  let closing = -1;
  for (let at = text.indexOf('{'); at !== -1; at = text.indexOf('{', at + 1)) {
    const next = text[at + 1];
    if (next === '{') count++;
    else if (next === '%') {
      count++;
      if (closing < at + 2) {
        closing = text.indexOf('%}', at + 2);
        if (closing === -1) closing = text.length;
      }
      const end = closing === text.length ? -1 : closing;
      if (/^-?\s*liquid\b/.test(text.slice(at + 2, at + 12))) {
        const body = text.slice(at + 2, end === -1 ? text.length : end);
        for (let line = body.indexOf('\n'); line !== -1; line = body.indexOf('\n', line + 1)) count++;
        if (end !== -1) at = end;
      }
    }
    if (count > PIN_LIMITS.tagsPerFile)
      throw limitError(`${shown} has more than ${PIN_LIMITS.tagsPerFile.toLocaleString('en-US')} tags`);
  }
  return count;
}

// The same resolution as the worker's (template-worker.ts): `/` paths below the workspace, or OUTSIDE.
function resolveKey(dir: string, file: string): string {
  if (file.startsWith('/') || file.includes('\\') || file.includes('\0')) return OUTSIDE_KEY;
  const joined = path.posix.normalize(path.posix.join(dir === '.' ? '' : dir, file));
  return joined === '..' || joined.startsWith('../') ? OUTSIDE_KEY : joined;
}

function references(text: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(REFERENCE)) {
    const name = match[1] ?? match[2] ?? '';
    // A name built from variables ("rows/{{ kind }}") cannot be known before the render; only pinned files exist.
    if (name !== '' && name !== 'none' && !name.includes('{{')) names.push(name);
  }
  return names;
}

// The first candidate that is pinned already (null: nothing to add) or exists in the workspace (read now).
async function firstExisting(
  workspace: string,
  keys: string[],
  { reference, parameter }: { reference: string; parameter: string },
  pinned: (key: string) => boolean,
) {
  for (const key of keys) {
    if (pinned(key)) return null;
    try {
      return await readTemplate(workspace, key, parameter);
    } catch (error) {
      if (error instanceof ToolError && error.code === 'not_found') continue;
      if (error instanceof ToolError)
        throw new ToolError(error.code, `the include "${reference}": ${error.message}`, error.details);
      throw error;
    }
  }
  return null;
}

async function readTemplate(workspace: string, relative: string, parameter: string) {
  const where = await workspacePath(workspace, relative, parameter);
  const file = await readWorkspaceText(workspace, where.parts.join('/'), parameter, PIN_LIMITS.fileBytes);
  countTags(file.text, file.relative);
  return file;
}

function limitError(message: string): ToolError {
  return new ToolError('template_too_large', `the template is too large to render safely: ${message}`);
}
