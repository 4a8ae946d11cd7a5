// Shapes shared by the script-tool adapter: scan folders, validated tool.json, loaded tools, problems.
import type { JsonSchema } from '../../../tools/sdk/types';

/** Which scan folder a tool comes from; the workspace one overrides the global one on the same name. */
export type ScriptScope = 'global' | 'workspace';

/** A folder scanned for script tools. */
export interface ScanDir {
  dir: string;
  scope: ScriptScope;
  /** For the workspace scope: the workspace folder whose trust decides whether its tools are trusted. */
  workspace?: string;
}

/** A broken tool folder, shown to the user; it does not stop the other folders. */
export interface ScriptProblem {
  /** The tool folder (or the scan folder, when that cannot be read). */
  dir: string;
  /** The file at fault: tool.json, the missing script, or the folder itself. */
  file: string;
  reason: string;
  scope: ScriptScope;
}

/** A validated tool.json. */
export interface ScriptManifest {
  /** The author's name; the tool registers as `script_<name>`. */
  name: string;
  description: string;
  parameters: JsonSchema;
  alwaysAllow: boolean;
  concurrent: boolean;
  /** From `timeout` (seconds); the dispatch limit. */
  timeoutMs: number;
  /** Secret key names, passed to the script as environment variables. */
  secrets: string[];
  /** tool.json's `writable` as written (resolved and checked when the tool folder loads). */
  writable: string[];
}

/** The interpreter of a script: script.js runs with node, script.py with python3. */
export type ScriptLanguage = 'js' | 'py';

/** A tool folder that loaded. */
export interface ScriptTool {
  /** The registered name, `script_<manifest.name>`. */
  toolName: string;
  dir: string;
  scope: ScriptScope;
  manifest: ScriptManifest;
  script: { path: string; language: ScriptLanguage };
  /**
   * False for a workspace tool whose folder the person has not trusted, or that is new or changed since they trusted
   * it (docs/security.md).
   */
  trusted: boolean;
  /** Why a workspace tool is not trusted, as words that follow "it" (new or changed since the folder was trusted…). */
  untrusted?: string;
  /** A trusted workspace tool's content pin: checked again before each call, so a change since the scan never runs. */
  pin?: string;
  /** Folders a global tool may write besides the workspace: its own folder, then tool.json's `writable`. */
  writable: string[];
  /** Changes when tool.json or the script changes: the tool is then registered again. */
  fingerprint: string;
  /** Things worth telling the author that do not stop the tool (unknown keys, two scripts). */
  warnings: string[];
}
