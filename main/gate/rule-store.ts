// approval-rules.json in $AGENVOY_HOME/desktop: user rules and revoked defaults, read fresh when the file changes.
import path from 'node:path';
import { z } from 'zod';
import type { JsonFileState } from '../core/json-file-store';
import { JsonFileStore } from '../core/json-file-store';
import { jsonBoundsProblem } from '../core/schema-bounds';
import { shownValue } from '../core/zod-issues';
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
export type RuleFileState = JsonFileState<RuleFile>;

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
export class RuleStore extends JsonFileStore<RuleFile> {
  constructor(file: string) {
    super(file, {
      empty: emptyFile,
      parse: parseRuleFile,
      maxBytes: MAX_RULES_FILE_BYTES,
      noun: 'a rules file',
      damagedError: (problem) =>
        new RuleFileError(`${problem}; fix or remove the file to change approval rules`),
    });
  }

  /** The store of `$AGENVOY_HOME/desktop/approval-rules.json` for a desktop folder. */
  static inDesktop(desktopDir: string): RuleStore {
    return new RuleStore(path.join(desktopDir, RULES_FILE));
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
  // Bounded before the schema looks at it: no rules file nests this deep, and nothing walks a value that does.
  const bounds = jsonBoundsProblem(raw, RULE_FILE_BOUNDS);
  if (bounds) return { kind: 'damaged', problem: `${file}: ${bounds}` };
  const checked = ruleFileSchema.safeParse(raw);
  if (!checked.success) return { kind: 'damaged', problem: `${file}: ${firstProblem(checked.error.issues)}` };
  return { kind: 'ok', file: checked.data };
}

function emptyFile(): RuleFile {
  return { version: 1, rules: [], revokedDefaults: [] };
}

const RULE_FILE_BOUNDS = { maxDepth: 16, maxBytes: MAX_RULES_FILE_BYTES };

const says = (error: string) => ({ error });
const EXCEPT = says('"except" must be an array of globs');
const DEFINITIONS = says('"definitions" must map tool names to definition hashes');
const REVOKED = says('"revokedDefaults" must be an array of rule ids');
const SECRETS = says('"secrets" must be an array of secret names');

// A file we do not fully understand applies no rule at all: a half-read file could drop a deny or revive a revoked
// default. Keys this version does not know are kept, and written back on a change.
const storedRuleSchema = z.looseObject(
  {
    id: z.string(says('needs an "id"')).min(1, says('needs an "id"')),
    tool: z.string(says('needs a "tool" glob')).min(1, says('needs a "tool" glob')),
    pattern: z.string(says('"pattern" must be a string or null')).nullable(),
    except: z.array(z.string(EXCEPT), EXCEPT),
    effect: z.enum(['allow', 'deny'], says('"effect" must be "allow" or "deny"')),
    createdAt: z.string(says('needs a "createdAt" time')),
    definitions: z.record(z.string(), z.string(DEFINITIONS), DEFINITIONS),
    secrets: z.array(z.string(SECRETS), SECRETS).optional(),
  },
  says('must be an object'),
);

const ruleFileSchema = z.looseObject(
  {
    version: z.literal(1, { error: (issue) => `unknown version ${shownValue(issue.input)}` }),
    rules: z.array(storedRuleSchema, says('"rules" must be an array')),
    revokedDefaults: z.array(z.string(REVOKED), REVOKED),
  },
  says('must hold a JSON object'),
);

/** The problem the file's own fields have first, then the first rule's: "rules[2] needs a "tool" glob". */
function firstProblem(issues: readonly z.core.$ZodIssue[]): string {
  const inRule = (issue: z.core.$ZodIssue) => issue.path[0] === 'rules' && typeof issue.path[1] === 'number';
  const issue = issues.find((candidate) => !inRule(candidate)) ?? issues[0];
  if (!issue) return 'is not valid';
  return inRule(issue) ? `rules[${String(issue.path[1])}] ${issue.message}` : issue.message;
}
