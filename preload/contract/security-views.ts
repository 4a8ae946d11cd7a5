// The IPC contract, part: what the Settings screen and the trust dialog show of the OS sandbox and trusted folders
// (docs/security.md). Types only; preload/contract.ts re-exports every part.

/** The OS sandbox of commands and script tools (docs/security.md), for the Settings screen. */
export type SandboxStatusView =
  | {
      state: 'ready';
      /** 'bubblewrap' on Linux, 'sandbox-exec' on macOS. */
      backend: string;
      /** What a sandboxed process may do, one line each, for the person to read. */
      policy: string[];
    }
  | {
      state: 'unavailable';
      /** Why no sandbox can start (missing packages, user namespaces off, an unsupported system). */
      reason: string;
      /** What that means for approvals, in one line. */
      consequence: string;
    };

/** A folder whose workspace tools the person trusts (docs/security.md). */
export interface TrustedFolderItem {
  /** Its realpath when it was trusted. */
  path: string;
  /** ISO time. */
  trustedAt: string;
  /** false when the folder is gone (or a symlink now stands there): it then trusts nothing. */
  exists: boolean;
  /**
   * The tools trusted with it (as they were then); null for a folder trusted before tools were recorded, whose
   * tools are not trusted until the person trusts it again.
   */
  tools: string[] | null;
}

/** A tool of a trusted folder that is not what the person trusted: it asks on every call until they trust it again. */
export interface TrustToolChange {
  name: string;
  /** `new`: not there when the folder was trusted; `changed`: its tool.json, script or a file beside it in its scan folder differs. */
  change: 'new' | 'changed';
}

/** Whether a workspace's own tools (`<workspace>/.config/agenvoy/tools/script`) are trusted, for the trust dialog. */
export interface WorkspaceTrustView {
  /** The workspace as asked. */
  workspace: string;
  /** Its realpath: what trust is keyed by (null when the folder does not exist). */
  folder: string | null;
  trusted: boolean;
  /** Registered names of the tools found there (script_<name>), loaded or not. */
  tools: string[];
  /**
   * The tools that ask on every call and get no secrets: all of them when the folder is not trusted (or must be
   * trusted again), else those new or changed since it was trusted (or that cannot be pinned).
   */
  untrustedTools: string[];
  /** Of a trusted folder: the tools new or changed since it was trusted. */
  changedTools: TrustToolChange[];
  /** When the person last trusted the folder (null: never). */
  trustedAt: string | null;
  /** Set for a folder trusted before tools were recorded: none of its tools is trusted until it is trusted again. */
  retrust: string | null;
  /** Set when trusted-folders.json is damaged: then nothing is trusted. */
  problem: string | null;
}
