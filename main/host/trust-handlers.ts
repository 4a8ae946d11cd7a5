// The trust channels (docs/security.md): list, trust and revoke folders whose workspace tools the person trusts,
// and whether a workspace has tools that are not trusted (also: new or changed since its folder was trusted). A
// change rescans the script tools before it answers, so it applies without a restart.
import path from 'node:path';
import type { InvokeChannel, TrustedFolderItem, WorkspaceTrustView } from '../../preload/contract';
import { changeSinceTrust, judgeFolder, pinsToRecord } from '../adapters/script/workspace-pins';
import type { TrustedFolder } from '../core/trust/trust-file';
import { realFolder, TrustError } from '../core/trust/trusted-folders';
import type { HandlerTable, HostContext } from './host-context';
import { HostError } from './host-error';
import { optionalString, requestObject, requiredString } from './request-fields';

type TrustChannel = Extract<InvokeChannel, 'trust.list' | 'trust.add' | 'trust.revoke' | 'trust.status'>;

/** The trust handlers over the core's trusted folders. */
export function trustHandlers(ctx: HostContext): HandlerTable<TrustChannel> {
  const { core } = ctx;
  const folderField = (request: unknown): string => {
    const folder = requiredString(requestObject(request), 'folder', 4096).trim();
    if (!path.isAbsolute(folder)) throw new HostError('invalid_request', '"folder" must be an absolute path');
    return folder;
  };
  const changed = async () => {
    // The registry change that follows reaches the window as tools.changed.
    await core.scripts.rescan();
  };
  return {
    'trust.list': async () => {
      const state = await core.trust.read();
      if (state.kind === 'damaged')
        return { folders: [], problem: `${state.problem}; nothing is trusted until it is fixed or removed` };
      return { folders: await Promise.all(state.file.folders.map(folderItem)), problem: null };
    },
    'trust.add': async (request) => {
      const folder = folderField(request);
      // The chat window cannot trust a folder by itself: main asks the person in its own dialog (docs/security.md).
      const real = await realFolder(folder);
      if (!real) throw new HostError('invalid_request', `${folder} is not an existing folder`);
      // What the dialog shows is what gets pinned: a tool that arrives while it is open is not trusted by it.
      const judged = await judgeFolder(real, await core.trust.check(real));
      const tools = judged.map(({ tool, ...entry }) => ({
        name: tool.toolName,
        alwaysAllow: tool.manifest.alwaysAllow,
        secrets: [...tool.manifest.secrets],
        change: changeSinceTrust({ tool, ...entry }),
      }));
      if (!(await ctx.dialogs.confirmTrust(real, tools, ctx.signal)))
        throw new HostError('declined', `${real} was not trusted: the person declined`);
      const added = await trustChange(() => core.trust.add(real, pinsToRecord(judged)));
      await changed();
      return folderItem(added.folder);
    },
    'trust.revoke': async (request) => {
      const folder = folderField(request);
      const removed = await trustChange(() => core.trust.revoke(folder));
      if (!removed) throw new HostError('not_found', `${folder} is not a trusted folder`);
      await changed();
      return folderItem(removed);
    },
    'trust.status': async (request) => {
      const asked = optionalString(requestObject(request), 'workspace', 4096)?.trim() || core.workspace;
      if (!path.isAbsolute(asked))
        throw new HostError('invalid_request', '"workspace" must be an absolute path');
      return workspaceTrust(ctx, asked);
    },
  };
}

/** Whether `workspace`'s own tools are trusted, and which tools that concerns. */
export async function workspaceTrust(ctx: HostContext, workspace: string): Promise<WorkspaceTrustView> {
  const folder = await realFolder(workspace);
  const check = await ctx.core.trust.check(workspace);
  const judged = folder ? await judgeFolder(folder, check) : [];
  return {
    workspace,
    folder,
    trusted: check.trusted,
    tools: judged.map((entry) => entry.tool.toolName),
    untrustedTools: judged.filter((entry) => entry.untrusted !== null).map((entry) => entry.tool.toolName),
    changedTools: judged.flatMap((entry) => {
      const change = changeSinceTrust(entry);
      return change ? [{ name: entry.tool.toolName, change }] : [];
    }),
    trustedAt: check.trustedAt,
    retrust: check.retrust,
    problem: check.problem,
  };
}

async function folderItem(folder: TrustedFolder): Promise<TrustedFolderItem> {
  return {
    path: folder.path,
    trustedAt: folder.trustedAt,
    exists: (await realFolder(folder.path)) === folder.path,
    tools: folder.tools === null ? null : [...new Set(folder.tools.map((tool) => tool.name))].sort(),
  };
}

// A folder that is not one, or a damaged file, is the caller's to fix: said with a code, not as a crash.
async function trustChange<T>(change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (error) {
    if (error instanceof TrustError) throw new HostError('invalid_request', error.message);
    throw error;
  }
}
