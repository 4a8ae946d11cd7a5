// The confirm gate as the dispatcher sees it: one request per call, one decision each (docs/security.md, "Decisions and rules").
import type { ApprovalAuthority, ToolFlags, ToolSource } from '../../tools/sdk/types';

/**
 * How a call that starts processes would run (docs/security.md): 'none' for tools that start none;
 * 'unconfined_requested' when the call asked for `sandbox: false`; 'unconfined_unavailable' when no sandbox can
 * start on this machine.
 */
export type CallSandbox = 'none' | 'sandboxed' | 'unconfined_requested' | 'unconfined_unavailable';

/** What the user is shown before a tool that is not alwaysAllow runs. */
export interface ApprovalRequest {
  callId: string;
  chatId: string;
  tool: string;
  source: ToolSource;
  flags: ToolFlags;
  timeoutMs: number | null;
  /** Hash of the tool's description and schema: an approval rule is tied to it. */
  definitionHash: string;
  args: Record<string, unknown>;
  /** The chat's workspace: relative paths and a command's `cwd` are resolved against it. */
  workspace: string;
  /** How the call would run if allowed. */
  sandbox: CallSandbox;
  /** Where the tool reads a relative path from, when not the workspace (ToolSpec.pathsFrom). */
  pathsFrom?: string;
}

/** The user's answer for one call. `scope` says how far an allow reaches; `by` who allowed it (absent: a policy). */
export type ApprovalDecision =
  | {
      kind: 'allow';
      scope: 'once' | 'chat' | 'always';
      by?: Exclude<ApprovalAuthority, 'not_needed'>;
      ruleId?: string | null;
      ruleOrigin?: 'default' | 'user' | null;
    }
  | { kind: 'deny'; reason?: string; scope?: 'once' | 'always'; message?: string }
  | { kind: 'stop' };

/** Decides a batch of calls item by item; `decisions[i]` answers `requests[i]`. */
export interface ApprovalGate {
  decide(requests: ApprovalRequest[], options: { signal: AbortSignal }): Promise<ApprovalDecision[]>;
  /**
   * Decides again a call a rule or a chat grant allowed, just before it runs after others of its batch did: the
   * standing approval's decision when it still covers the call (quietly), else a new decision (which may ask).
   * Absent: `decide` is called again.
   */
  reconfirm?(request: ApprovalRequest, options: { signal: AbortSignal }): Promise<ApprovalDecision>;
  /**
   * Whether a call of a tool that needs no approval (alwaysAllow) names a sensitive target all the same, which always
   * asks (docs/security.md, "Nothing skips the gate"): a trusted MCP server's read-only `read_file` given
   * `~/.ssh/id_rsa`. Absent: such calls are never decided.
   */
  namesSensitiveTarget?(call: Pick<ApprovalRequest, 'tool' | 'args' | 'workspace' | 'pathsFrom'>): boolean;
}

/** A gate that answers every request with the same policy, or asks a callback (headless and tests). */
export function policyGate(
  policy: 'allow' | 'deny' | ((request: ApprovalRequest) => Promise<ApprovalDecision> | ApprovalDecision),
): ApprovalGate {
  return {
    async decide(requests) {
      if (policy === 'allow') return requests.map(() => ({ kind: 'allow', scope: 'once', by: 'policy' }));
      if (policy === 'deny')
        return requests.map(() => ({
          kind: 'deny',
          message: 'denied: this host runs without approvals (--approve deny)',
        }));
      const decisions: ApprovalDecision[] = [];
      for (const request of requests) decisions.push(await policy(request));
      return decisions;
    },
  };
}
