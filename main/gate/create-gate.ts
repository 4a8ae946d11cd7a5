// Builds a ConfirmGate over $AGENVOY_HOME: the rules file in desktop/, the user's home folders for sensitive targets.
import { agenvoyPaths } from '../core/paths';
import type { ApprovalPolicy, ConfirmGateOptions } from './confirm-gate';
import { ConfirmGate } from './confirm-gate';
import type { ApprovalPrompter } from './prompter-port';
import { RuleBook } from './rule-book';
import { RuleStore } from './rule-store';
import { sensitiveOptions } from './sensitive-paths';

/** What a host chooses when it builds its gate. */
export interface GateSetup {
  /** $AGENVOY_HOME (absolute). */
  home: string;
  env?: NodeJS.ProcessEnv;
  policy?: ApprovalPolicy;
  /** The 'allow' policy is a person's decision for this one call (`tools call --yes`). */
  personal?: boolean;
  prompter?: ApprovalPrompter | null;
  timeoutMs?: number | null;
  unattendedMessage?: ConfirmGateOptions['unattendedMessage'];
}

/** The gate of one host, with the persisted rules of `home`. */
export function createConfirmGate(setup: GateSetup): ConfirmGate {
  const paths = agenvoyPaths(setup.home);
  return new ConfirmGate({
    rules: new RuleBook(RuleStore.inDesktop(paths.desktop)),
    sensitive: sensitiveOptions(paths.home, setup.env ?? process.env),
    policy: setup.policy ?? 'ask',
    personal: setup.personal ?? false,
    prompter: setup.prompter ?? null,
    timeoutMs: setup.timeoutMs ?? null,
    unattendedMessage: setup.unattendedMessage,
  });
}

/** The rules book of `home`, for the rules API and CLI. */
export function ruleBookFor(home: string): RuleBook {
  return new RuleBook(RuleStore.inDesktop(agenvoyPaths(home).desktop));
}

/** `AGENVOY_APPROVAL_TIMEOUT` in seconds (0 turns the time-out off), else `fallback`. */
export function approvalTimeoutFromEnv(env: NodeJS.ProcessEnv, fallback: number | null): number | null {
  const raw = env.AGENVOY_APPROVAL_TIMEOUT;
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) return fallback;
  return value === 0 ? null : Math.round(value * 1000);
}
