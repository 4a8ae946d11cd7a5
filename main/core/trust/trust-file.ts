// The content of trusted-folders.json (docs/security.md), read defensively: a file that is not exactly what this
// version writes trusts nothing, so a tampered or half-written file can only ever make tools ask more.
//
// Version 2 pins, per folder, the workspace tools it held when the person trusted it (name and content pin): a tool
// that arrives or changes later is not trusted. A version 1 file (written before pins) is still read, but its
// folders pin nothing, so their tools ask until the person trusts the folder again; older Agenvoy versions read a
// version 2 file as damaged and trust nothing, never more.
import path from 'node:path';
import { z } from 'zod';
import { jsonBoundsProblem } from '../schema-bounds';
import { shownValue } from '../zod-issues';
import { MAX_TRUST_FILE_BYTES, TRUST_FILE_VERSION } from './trust-file-limits';

/** A workspace tool as it was when its folder was trusted: its registered name and the pin of its content. */
export interface ToolPin {
  /** `script_<name>`. */
  name: string;
  /** sha256 (hex) of its tool folder's content (main/adapters/script/tool-pin.ts). */
  pin: string;
}

/** One folder the person trusted: its realpath when it was trusted, when, and the tools it then held. */
export interface TrustedFolder {
  path: string;
  /** ISO time of the last time the person trusted it. */
  trustedAt: string;
  /** The tools trusted with it; null for a folder trusted before tools were pinned (it must be trusted again). */
  tools: ToolPin[] | null;
}

/** The content of trusted-folders.json. */
export interface TrustFile {
  version: 2;
  folders: TrustedFolder[];
}

/** What reading the file found: its folders, or why it is damaged (then no folder is trusted). */
export type TrustFileState = { kind: 'ok'; file: TrustFile } | { kind: 'damaged'; problem: string };

export { emptyTrustFile, MAX_TRUST_FILE_BYTES, TRUST_FILE_VERSION } from './trust-file-limits';

// Longer than any real path, short enough that a huge file cannot hide an entry behind noise.
const MAX_PATH_LENGTH = 4096;
const MAX_FOLDERS = 10_000;
// More tools than any folder holds; a bound so a crafted file cannot make every check slow.
const MAX_TOOLS = 1000;
// Checked before the schema looks at the file: no trust file nests this deep or grows this large.
const TRUST_FILE_BOUNDS = { maxDepth: 16, maxBytes: MAX_TRUST_FILE_BYTES };
const PIN_NAME = /^script_[A-Za-z0-9_-]{1,57}$/;
const PIN = /^[0-9a-f]{64}$/;

/** Parses the text of trusted-folders.json; any deviation is a damaged file, never a partial read. */
export function parseTrustFile(text: string, file: string): TrustFileState {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { kind: 'damaged', problem: `${file} is not valid JSON (${(error as Error).message})` };
  }
  const bounds = jsonBoundsProblem(raw, TRUST_FILE_BOUNDS);
  if (bounds) return { kind: 'damaged', problem: `${file}: ${bounds}` };
  // The version decides the rest: a version 1 file knows no pins, and kept keys of its own.
  const head = versionSchema.safeParse(raw);
  if (!head.success) return { kind: 'damaged', problem: `${file}: ${firstProblem(head.error.issues)}` };
  if (head.data.version === 1) {
    const checked = trustFileV1Schema.safeParse(raw);
    if (!checked.success)
      return { kind: 'damaged', problem: `${file}: ${firstProblem(checked.error.issues)}` };
    // A version 1 entry pinned nothing: its folder must be trusted again before any of its tools is.
    const folders = checked.data.folders.map((entry) => ({
      path: entry.path,
      trustedAt: entry.trustedAt,
      tools: null,
    }));
    return { kind: 'ok', file: { version: 2, folders } };
  }
  const checked = trustFileV2Schema.safeParse(raw);
  if (!checked.success) return { kind: 'damaged', problem: `${file}: ${firstProblem(checked.error.issues)}` };
  return { kind: 'ok', file: checked.data };
}

const says = (error: string) => ({ error });
/** An object's messages: `unknown` for a key it does not know, `other` for the rest (not an object). */
const objectSays = (other: string, unknown: (key: string) => string = () => other) => ({
  error: (issue: { code: string; keys?: string[] }) =>
    issue.code === 'unrecognized_keys' ? unknown(shownKey(issue.keys?.[0] ?? '')) : other,
});

const versionSchema = z.looseObject(
  {
    version: z.literal([1, TRUST_FILE_VERSION], {
      error: (issue) => `unknown version ${shownValue(issue.input)}`,
    }),
  },
  says('must hold a JSON object'),
);

// Entries are written as realpaths: anything else was not written by Agenvoy.
const folderPath = z
  .string(says('needs a "path"'))
  .min(1, says('needs a "path"'))
  .refine((folder) => folder.length <= MAX_PATH_LENGTH && !folder.includes('\0'), {
    ...says('"path" is not a usable path'),
    abort: true,
  })
  .refine(
    (folder) => path.isAbsolute(folder) && path.resolve(folder) === folder,
    says('"path" must be an absolute, normal path'),
  );

const trustedAt = z
  .string(says('needs a "trustedAt" time'))
  .refine((time) => !Number.isNaN(Date.parse(time)), says('needs a "trustedAt" time'));

const toolPin = z.strictObject(
  {
    name: z
      .string(says('needs a "name" like script_<name>'))
      .regex(PIN_NAME, says('needs a "name" like script_<name>')),
    pin: z.string(says('needs a "pin" of 64 hex digits')).regex(PIN, says('needs a "pin" of 64 hex digits')),
  },
  objectSays('must be { "name", "pin" }'),
);

const folders = <T extends z.ZodType>(entry: T) =>
  z
    .array(entry, says('"folders" must be an array'))
    .max(MAX_FOLDERS, says(`"folders" holds more than ${MAX_FOLDERS} entries`));

const trustFileV1Schema = z.looseObject({
  version: z.literal(1),
  folders: folders(z.looseObject({ path: folderPath, trustedAt }, says('must be an object'))),
});

const trustFileV2Schema = z.strictObject(
  {
    version: z.literal(TRUST_FILE_VERSION),
    folders: folders(
      z.strictObject(
        {
          path: folderPath,
          trustedAt,
          tools: z
            .array(toolPin, says('"tools" must be an array (or null for a folder to trust again)'))
            .max(MAX_TOOLS, says(`"tools" holds more than ${MAX_TOOLS} entries`))
            .nullable(),
        },
        objectSays('must be an object', (key) => `has an unknown key ${key}`),
      ),
    ),
  },
  objectSays('must hold a JSON object', (key) => `unknown key ${key}`),
);

/**
 * The first problem as the file reads: its own keys, then each folder in order with its tools after it; a key an
 * object should not have before that object's other problems. Named by place: `folders[3] tools[0] needs a "pin" …`.
 */
function firstProblem(issues: readonly z.core.$ZodIssue[]): string {
  const place = (issue: z.core.$ZodIssue) => issue.path.filter((step) => typeof step === 'number');
  const before = (a: z.core.$ZodIssue, b: z.core.$ZodIssue) => {
    const [pa, pb] = [place(a), place(b)];
    for (let i = 0; i < Math.min(pa.length, pb.length); i++) if (pa[i] !== pb[i]) return pa[i]! - pb[i]!;
    if (pa.length !== pb.length) return pa.length - pb.length;
    return Number(b.code === 'unrecognized_keys') - Number(a.code === 'unrecognized_keys');
  };
  const issue = [...issues].sort(before)[0];
  if (!issue) return 'is not valid';
  const named = issue.path.flatMap((step, i) => {
    const next = issue.path[i + 1];
    return typeof next === 'number' ? [`${String(step)}[${next}]`] : [];
  });
  return [...named, issue.message].join(' ');
}

function shownKey(key: string): string {
  return JSON.stringify(key.slice(0, 40));
}
