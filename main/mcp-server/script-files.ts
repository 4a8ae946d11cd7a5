// Writes and patches script-tool folders (tool.json + script.js|py) for the authoring helpers of `mcp serve`,
// and checks them the way loading will: tool.json validation plus the design-rule linter.
import { writeFileAtomic } from '../core/atomic-write';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { JsonSchema } from '../../tools/sdk/types';
import { readBounded } from '../adapters/script/discover';
import { MAX_MANIFEST_BYTES } from '../adapters/script/manifest-limits';
import { parseManifest } from '../adapters/script/tool-manifest';
import type { ScriptLanguage } from '../adapters/script/types';
import { lintTool } from '../core/lint/lint-tool';
import type { LintFinding } from '../core/lint/types';

// Folder names become paths: only the characters a tool name may hold, so nothing escapes the scan folder.
const FOLDER_NAME = /^[A-Za-z0-9_-]{1,57}$/;

/** The tool.json fields an author sets, as they appear in the file. */
export interface ManifestFields {
  name: string;
  description: string;
  parameters: JsonSchema;
  always_allow?: boolean;
  concurrent?: boolean;
  timeout?: number;
  secrets?: string[];
}

/** What writing a tool folder produced. */
export interface WrittenTool {
  dir: string;
  files: string[];
  /** Why tool.json will not load, or null when it will. */
  manifestProblem: string | null;
  /** Design-rule findings for the author's name, description and parameters. */
  lint: LintFinding[];
}

/** Throws unless `name` is a safe folder and tool name. */
export function checkToolName(name: string): void {
  if (!FOLDER_NAME.test(name)) {
    throw new Error(
      `tool name ${JSON.stringify(name)} must be 1-57 letters, digits, "_" or "-" (it becomes script_<name>)`,
    );
  }
}

/** Writes a new tool folder `<scanDir>/<name>`; refuses an existing one unless `overwrite`. */
export async function createToolFolder(
  scanDir: string,
  manifest: ManifestFields,
  script: { source: string; language: ScriptLanguage },
  overwrite: boolean,
): Promise<WrittenTool> {
  checkToolName(manifest.name);
  const dir = path.join(scanDir, manifest.name);
  const exists = await fs.stat(dir).then(
    () => true,
    () => false,
  );
  if (exists && !overwrite)
    throw new Error(`${dir} already exists: use patch_script_tool, or set overwrite to true`);
  await checkOwnFolder(dir);
  await fs.mkdir(dir, { recursive: true });
  return writeFolder(dir, manifest, script);
}

/** Merges `changes` into the tool.json of `dir` and replaces the script when one is given. */
export async function patchToolFolder(
  dir: string,
  changes: Partial<ManifestFields>,
  script: { source: string; language: ScriptLanguage } | null,
): Promise<WrittenTool> {
  const current = await readManifestObject(dir);
  const merged = { ...current, ...changes } as ManifestFields;
  return writeFolder(dir, merged, script);
}

/** The tool.json of `dir` as an object; a broken file counts as empty so a patch can repair it. */
export async function readManifestObject(dir: string): Promise<Record<string, unknown>> {
  try {
    // Bounded, and never waiting on a fifo planted where tool.json should be.
    const text = await readBounded(path.join(dir, 'tool.json'), MAX_MANIFEST_BYTES);
    if (text === null) return {};
    const raw: unknown = JSON.parse(text);
    return raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The language of the script a folder holds, if any. */
export async function scriptLanguageOf(dir: string): Promise<ScriptLanguage | null> {
  for (const language of ['js', 'py'] as const) {
    if (await fs.stat(path.join(dir, `script.${language}`)).then(Boolean, () => false)) return language;
  }
  return null;
}

/**
 * Throws unless every folder from the scan folder's root (the workspace, or the app's home for global tools) down to
 * `dir` is a plain folder, not a link (docs/tools.md, "Serving tools over MCP"): a repository's tool folder
 * `deploy -> ../../../../../home/outside`, broken since it holds no tool.json, had patch_script_tool replace a
 * `script.py` and plant a tool.json outside the workspace. Folders not made yet pass (mkdir makes plain ones).
 */
export async function checkOwnFolder(dir: string): Promise<void> {
  const scan = path.dirname(dir);
  const inWorkspace = scan.endsWith(path.join('.config', 'agenvoy', 'tools', 'script'));
  let root = path.dirname(path.dirname(scan));
  if (inWorkspace) root = path.dirname(path.dirname(root));
  for (let at = dir; at !== root && at !== path.dirname(at); at = path.dirname(at)) {
    const stat = await fs.lstat(at).catch(() => null);
    if (stat !== null && !stat.isDirectory())
      throw new Error(
        `${at} is ${stat.isSymbolicLink() ? 'a link' : 'not a folder'}; tool folders are written only as plain folders, never through a link`,
      );
  }
}

async function writeFolder(
  dir: string,
  manifest: ManifestFields,
  script: { source: string; language: ScriptLanguage } | null,
): Promise<WrittenTool> {
  await checkOwnFolder(dir);
  const text = JSON.stringify(manifest, null, 2) + '\n';
  const files = [await writeAtomic(path.join(dir, 'tool.json'), text)];
  if (script) {
    files.push(await writeAtomic(path.join(dir, `script.${script.language}`), script.source));
    // One script per folder: a folder holding both would be ambiguous.
    const other = script.language === 'js' ? 'py' : 'js';
    await fs.rm(path.join(dir, `script.${other}`), { force: true });
  }
  const parsed = parseManifest(text);
  return {
    dir,
    files,
    manifestProblem: parsed.ok ? null : parsed.reason,
    lint: lintTool({
      name: manifest.name,
      description: manifest.description,
      parameters: manifest.parameters ?? {},
    }),
  };
}

// Write then rename, so the folder watcher never loads a half-written file.
async function writeAtomic(file: string, text: string): Promise<string> {
  await writeFileAtomic(file, text, { mode: 0o644 });
  return file;
}
