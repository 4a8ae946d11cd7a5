// A scan folder read with its trust applied (docs/security.md, "Workspace trust"): global tools are trusted; a
// workspace tool only when the person trusted its folder and it is pinned there as it is now. And the guard that
// keeps a trusted workspace tool from running once it differs from its pin.
import type { ToolHandler, ToolLogger } from '../../../tools/sdk/types';
import { ToolError } from '../../../tools/sdk/types';
import { realFolder } from '../../core/trust/trusted-folders';
import type { Discovery } from './discover';
import { scanDir } from './discover';
import type { ToolPinner } from './tool-pin';
import type { ScanDir, ScriptProblem, ScriptTool } from './types';
import type { FolderTrust } from './workspace-pins';
import { judgeTools } from './workspace-pins';

/** What a trusted scan needs: the trust port, where `~` and $AGENVOY_HOME are, and a log. */
export interface TrustedScanOptions {
  trust?: { check(folder: string): Promise<FolderTrust & { problem: string | null }> };
  homeDir?: string;
  agenvoyHome?: string;
  log: ToolLogger;
}

/** One scan folder's tools, each trusted or not; why a folder's tools are all untrusted goes to `problems`. */
export async function scanTrusted(
  scan: ScanDir,
  options: TrustedScanOptions,
  pinner: ToolPinner,
  problems: ScriptProblem[],
): Promise<Discovery> {
  const trust = await folderTrust(scan, options, problems);
  const found = await scanDir(scan, {
    trusted: trust.trusted,
    homeDir: options.homeDir,
    agenvoyHome: options.agenvoyHome,
  });
  if (scan.scope !== 'workspace' || !scan.workspace || !(trust.trusted || trust.retrust)) return found;
  const folder = (await realFolder(scan.workspace)) ?? scan.workspace;
  const judged = await judgeTools(found.tools, scan.dir, folder, trust, pinner);
  return {
    ...found,
    tools: judged.map(({ tool, pin, untrusted }) =>
      untrusted === null
        ? { ...tool, trusted: true, ...(pin.ok ? { pin: pin.pin } : {}) }
        : { ...tool, trusted: false, untrusted },
    ),
  };
}

/**
 * A trusted workspace tool runs only as it was pinned: a change between the last scan and a call (a pull a moment
 * ago) is refused, and `onChanged` (a rescan) registers the tool as untrusted.
 */
export function pinGuard(
  tool: ScriptTool,
  handler: ToolHandler,
  pinner: ToolPinner,
  onChanged: () => void,
): ToolHandler {
  const pinned = tool.pin;
  if (tool.scope !== 'workspace' || !tool.trusted || pinned === undefined) return handler;
  return async (args, ctx) => {
    const now = await pinner.pin(tool.dir);
    if (!now.ok || now.pin !== pinned) {
      onChanged();
      throw new ToolError(
        'tool_changed',
        `${tool.toolName} changed since it was loaded (${tool.dir}); it did not run. It is no longer the tool ` +
          'you trusted: from now on it asks on every call and gets no secrets until you trust its folder again.',
      );
    }
    return handler(args, ctx);
  };
}

// Global folders are always trusted; a workspace folder only when the person trusted it.
async function folderTrust(
  scan: ScanDir,
  options: TrustedScanOptions,
  problems: ScriptProblem[],
): Promise<FolderTrust> {
  if (scan.scope === 'global') return { trusted: true };
  if (!scan.workspace || !options.trust) return { trusted: false };
  try {
    const check = await options.trust.check(scan.workspace);
    const problem = check.problem ?? check.retrust ?? null;
    if (problem) {
      problems.push({
        dir: scan.dir,
        file: scan.dir,
        reason: `${problem}: these workspace tools ask on every call and get no secrets`,
        scope: scan.scope,
      });
    }
    return check;
  } catch (error) {
    options.log.warn('cannot check whether the workspace is trusted', {
      workspace: scan.workspace,
      error: (error as Error).message,
    });
    return { trusted: false };
  }
}
