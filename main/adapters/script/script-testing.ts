// Test and bench helpers for script tools: tool folders on disk and a ToolContext built by hand.
import fs from 'node:fs';
import path from 'node:path';
import type { ProgressUpdate, ToolContext } from '../../../tools/sdk/types';
import { AppLogger } from '../../core/logger';
import { Redactor } from '../../core/redactor';

/** What goes into a tool folder; `manifest` may be an object or raw text (to write broken JSON). */
export interface ToolFolder {
  manifest: Record<string, unknown> | string;
  js?: string;
  py?: string;
}

/** A description that passes the design rules, so tests see no lint noise. */
export const TEST_DESCRIPTION =
  'Echo the arguments back as JSON for testing.\nUse when checking script tool plumbing.';

/** Writes `<scanDir>/<folder>/tool.json` and its script(s); returns the folder. */
export function writeToolFolder(scanDir: string, folder: string, content: ToolFolder): string {
  const dir = path.join(scanDir, folder);
  fs.mkdirSync(dir, { recursive: true });
  const manifest =
    typeof content.manifest === 'string' ? content.manifest : JSON.stringify(content.manifest, null, 2);
  fs.writeFileSync(path.join(dir, 'tool.json'), manifest);
  if (content.js !== undefined) fs.writeFileSync(path.join(dir, 'script.js'), content.js);
  if (content.py !== undefined) fs.writeFileSync(path.join(dir, 'script.py'), content.py);
  return dir;
}

/** A manifest with a valid description and schema, plus `extra`. */
export function manifest(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    description: TEST_DESCRIPTION,
    parameters: { type: 'object', properties: {} },
    ...extra,
  };
}

/** A ToolContext whose log lines and progress updates are collected. */
export function testContext(options: {
  workspace: string;
  signal?: AbortSignal;
  secrets?: Record<string, string>;
  deadline?: number | null;
}): { ctx: ToolContext; lines: string[]; progress: ProgressUpdate[] } {
  const lines: string[] = [];
  const progress: ProgressUpdate[] = [];
  const ctx: ToolContext = {
    signal: options.signal ?? new AbortController().signal,
    progress: (update) => progress.push(update),
    log: new AppLogger(null, new Redactor(), {}, (line) => lines.push(line)),
    getSecret: async (key) => options.secrets?.[key],
    workspace: options.workspace,
    chatId: 'chat-test',
    callId: 'call-test',
    deadline: options.deadline ?? null,
    approval: { by: 'person', ruleId: null, ruleOrigin: null },
    services: {},
  };
  return { ctx, lines, progress };
}
