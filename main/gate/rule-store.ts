// approval-rules.json in $AGENVOY_HOME/desktop: user rules and revoked defaults, read fresh when the file changes.
import fs from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../core/atomic-write';
import type { StoredRule } from './rule-types';

/** The file name of the rules, in the desktop folder. */
export const RULES_FILE = 'approval-rules.json';

/** The content of approval-rules.json. */
export interface RuleFile {
  version: 1;
  rules: StoredRule[];
  /** Ids of shipped default rules the user revoked. */
  revokedDefaults: string[];
}

/** What reading the file found: its rules, or a damaged file (then no rule applies and every call asks). */
export type RuleFileState = { kind: 'ok'; file: RuleFile } | { kind: 'damaged'; problem: string };

/** The largest rules file read (far beyond any real one): a larger file is reported, never parsed. */
export const MAX_RULES_FILE_BYTES = 8 * 1024 * 1024;

/** Thrown when a change cannot be saved because the file on disk is damaged. */
export class RuleFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RuleFileError';
  }
}

/** The rules file: every read sees changes other processes made (the CLI beside the app); writes are atomic. */
export class RuleStore {
  private cache: { stamp: string; state: RuleFileState } | null = null;
  private writing: Promise<unknown> = Promise.resolve();

  constructor(readonly file: string) {}

  /** The store of `$AGENVOY_HOME/desktop/approval-rules.json` for a desktop folder. */
  static inDesktop(desktopDir: string): RuleStore {
    return new RuleStore(path.join(desktopDir, RULES_FILE));
  }

  /** Reads the file (cached until its size or mtime changes); a missing file is an empty one. */
  async read(): Promise<RuleFileState> {
    let stamp: string;
    try {
      const stat = await fs.stat(this.file);
      stamp = `${stat.mtimeMs}:${stat.size}:${stat.ino}`;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'ok', file: emptyFile() };
      return { kind: 'damaged', problem: `cannot read ${this.file}: ${(error as Error).message}` };
    }
    if (this.cache?.stamp === stamp) return this.cache.state;
    const state = await this.load();
    this.cache = { stamp, state };
    return state;
  }

  /** Reads the file fresh, applies `change` and writes the result atomically; one change at a time in this process. */
  update<T>(change: (file: RuleFile) => T): Promise<T> {
    const next = this.writing.then(async () => {
      this.cache = null;
      const state = await this.read();
      if (state.kind === 'damaged') {
        throw new RuleFileError(`${state.problem}; fix or remove the file to change approval rules`);
      }
      const file = structuredClone(state.file);
      const result = change(file);
      await writeFileAtomic(this.file, JSON.stringify(file, null, 2) + '\n');
      this.cache = null;
      return result;
    });
    this.writing = next.catch(() => undefined);
    return next;
  }

  private async load(): Promise<RuleFileState> {
    let text: string;
    try {
      const size = (await fs.stat(this.file)).size;
      if (size > MAX_RULES_FILE_BYTES)
        return {
          kind: 'damaged',
          problem: `${this.file} is ${size} bytes, more than a rules file can be (8 MiB)`,
        };
      text = await fs.readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'ok', file: emptyFile() };
      return { kind: 'damaged', problem: `cannot read ${this.file}: ${(error as Error).message}` };
    }
    return parseRuleFile(text, this.file);
  }
}

/** Reads the text of a rules file: its rules, or the first problem, naming the file and the field. */
export function parseRuleFile(text: string, file: string): RuleFileState {
  let raw: unknown;
  try {
    // A byte-order mark (Windows editors write one) is not part of the JSON.
    raw = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    return { kind: 'damaged', problem: `${file} is not valid JSON (${(error as Error).message})` };
  }
  const problem = checkFile(raw);
  return problem
    ? { kind: 'damaged', problem: `${file}: ${problem}` }
    : { kind: 'ok', file: raw as RuleFile };
}

function emptyFile(): RuleFile {
  return { version: 1, rules: [], revokedDefaults: [] };
}

// A file we do not fully understand applies no rule at all: a half-read file could drop a deny or revive a revoked default.
function checkFile(raw: unknown): string | null {
  if (!isObject(raw)) return 'must hold a JSON object';
  if (raw.version !== 1) return `unknown version ${JSON.stringify(raw.version)}`;
  if (!Array.isArray(raw.rules)) return '"rules" must be an array';
  if (!Array.isArray(raw.revokedDefaults) || !raw.revokedDefaults.every((id) => typeof id === 'string')) {
    return '"revokedDefaults" must be an array of rule ids';
  }
  for (const [i, rule] of raw.rules.entries()) {
    const problem = checkRule(rule);
    if (problem) return `rules[${i}] ${problem}`;
  }
  return null;
}

function checkRule(rule: unknown): string | null {
  if (!isObject(rule)) return 'must be an object';
  if (typeof rule.id !== 'string' || rule.id === '') return 'needs an "id"';
  if (typeof rule.tool !== 'string' || rule.tool === '') return 'needs a "tool" glob';
  if (rule.pattern !== null && typeof rule.pattern !== 'string') return '"pattern" must be a string or null';
  if (!Array.isArray(rule.except) || !rule.except.every((glob) => typeof glob === 'string'))
    return '"except" must be an array of globs';
  if (rule.effect !== 'allow' && rule.effect !== 'deny') return '"effect" must be "allow" or "deny"';
  if (typeof rule.createdAt !== 'string') return 'needs a "createdAt" time';
  if (
    !isObject(rule.definitions) ||
    !Object.values(rule.definitions).every((hash) => typeof hash === 'string')
  ) {
    return '"definitions" must map tool names to definition hashes';
  }
  return null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
