// Which workspace tools a folder's trust covers (docs/security.md, "Workspace trust"): only those pinned when the
// person trusted the folder, exactly as they were then. A tool that is new or changed since, one that cannot be
// pinned, and every tool of a folder trusted before tools were recorded is untrusted, with a reason in words; the
// script source, `agenvoy trust` and the trust dialog all judge through here.
import { workspaceScripts } from '../../core/paths';
import type { ToolPin } from '../../core/trust/trust-file';
import { scanDir } from './discover';
import type { PinResult } from './tool-pin';
import { ToolPinner } from './tool-pin';
import type { ScriptTool } from './types';

/** What a workspace folder's trust says (TrustedFolders.check, as the script source's trust port answers it). */
export interface FolderTrust {
  trusted: boolean;
  /** The tools pinned when the folder was trusted; without them nothing in it is trusted. */
  tools?: readonly ToolPin[] | null;
  trustedAt?: string | null;
  /** Set for a folder trusted before tools were recorded. */
  retrust?: string | null;
}

/** How one workspace tool stands against its folder's trust. */
export type PinState =
  /** Pinned as it is now: trusted. */
  | 'pinned'
  /** Not there when the folder was trusted. */
  | 'new'
  /** There by name, but its content differs from the pin. */
  | 'changed'
  /** Its folder cannot be pinned (too large, unreadable). */
  | 'unpinnable'
  /** Its folder was trusted before tools were recorded. */
  | 'retrust'
  /** Its folder is not trusted at all. */
  | 'untrusted';

/** One tool's standing: its pin now (when it could be made) and, when not trusted, why in words. */
export interface PinnedTool {
  tool: ScriptTool;
  pin: PinResult;
  state: PinState;
  /** Why it is not trusted, as words that follow "it" ("is new in … since you trusted that folder …"); null when trusted. */
  untrusted: string | null;
}

/** Judges the tools of one workspace scan folder against the trust of `folder`. */
export async function judgeTools(
  tools: readonly ScriptTool[],
  scanDir: string,
  folder: string,
  trust: FolderTrust,
  pinner: ToolPinner = new ToolPinner(),
): Promise<PinnedTool[]> {
  const pins = await pinner.pinAll(
    scanDir,
    tools.map((tool) => tool.dir),
  );
  const since = trust.trustedAt ? ` (${shownTime(trust.trustedAt)})` : '';
  return tools.map((tool) => {
    const pin = pins.get(tool.dir) ?? { ok: false, reason: 'it was not pinned' };
    const judged = (state: PinState, untrusted: string | null): PinnedTool => ({
      tool,
      pin,
      state,
      untrusted,
    });
    if (trust.retrust)
      return judged(
        'retrust',
        `comes from ${folder}, which was trusted before Agenvoy recorded a folder's tools: trust the folder again to trust it`,
      );
    if (!trust.trusted)
      return judged('untrusted', `comes from a workspace folder you have not trusted (${folder})`);
    if (!pin.ok)
      return judged(
        'unpinnable',
        `cannot be pinned (${pin.reason}), so trusting ${folder} does not cover it`,
      );
    const recorded = (trust.tools ?? []).filter((entry) => entry.name === tool.toolName);
    if (recorded.some((entry) => entry.pin === pin.pin)) return judged('pinned', null);
    if (recorded.length > 0)
      return judged(
        'changed',
        `changed since you trusted ${folder}${since}: its tool.json, its script or a file beside it in its scan folder ` +
          '(a helper, another tool, which its script may load) is not what you trusted; ' +
          'trust the folder again to trust it as it is now',
      );
    return judged(
      'new',
      `is new in ${folder} since you trusted that folder${since}: trust the folder again to trust it`,
    );
  });
}

/**
 * The workspace tools `folder` (a realpath) holds now, judged against its trust: what `agenvoy trust add` and the
 * trust dialog show, and (pinsToRecord) what trusting it now records.
 */
export async function judgeFolder(folder: string, trust: FolderTrust): Promise<PinnedTool[]> {
  const dir = workspaceScripts(folder);
  const found = await scanDir({ dir, scope: 'workspace', workspace: folder });
  const judged = await judgeTools(found.tools, dir, folder, trust);
  return judged.sort((a, b) => a.tool.toolName.localeCompare(b.tool.toolName));
}

/** For a folder trusted before: whether a tool is new or changed since (null when unchanged or never trusted). */
export function changeSinceTrust(judged: PinnedTool): 'new' | 'changed' | null {
  return judged.state === 'new' || judged.state === 'changed' ? judged.state : null;
}

/** The pins to record when the person trusts the folder now: every tool that could be pinned, as it is. */
export function pinsToRecord(judged: readonly PinnedTool[]): ToolPin[] {
  return judged.flatMap(({ tool, pin }) => (pin.ok ? [{ name: tool.toolName, pin: pin.pin }] : []));
}

// An ISO time as the person reads it in a reason: date and minutes, UTC.
function shownTime(iso: string): string {
  return `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}

/** Trusts `folder` with the tools it holds now, as `agenvoy trust add` does (for tests and scripts of the app). */
export async function trustAsItIs(
  store: {
    check(folder: string): Promise<FolderTrust>;
    add(folder: string, tools: readonly ToolPin[]): Promise<unknown>;
  },
  folder: string,
): Promise<void> {
  const judged = await judgeFolder(folder, await store.check(folder));
  await store.add(folder, pinsToRecord(judged));
}
