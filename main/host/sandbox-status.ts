// The sandbox's state as the Settings screen shows it (docs/security.md): one place words it for the UI and the CLI.
import type { SandboxStatusView } from '../../preload/contract';
import type { SandboxState } from '../core/sandbox-port';

/** What a sandboxed process may do, in the person's terms. */
export const SANDBOX_POLICY: readonly string[] = [
  'Commands and script tools write only in the chat’s workspace and a temp folder of their own (a global script tool also in its own folder and the folders its tool.json declares).',
  'Git hooks and config of every repository in the workspace, and this app’s workspace tools, stay read-only; a git repository a command creates is reported.',
  'Your home folder is hidden except per-user toolchains (nvm, pyenv, rustup…) and git’s own config; secret locations (~/.ssh, ~/.aws, ~/.gnupg, ~/.config/gh, ~/.netrc, ~/.npmrc, keyrings, browser profiles…), the workspace’s .env files and this app’s secret file and data are never readable.',
  'A command a rule allowed without asking gets no network; an approved one and script tools reach public hosts only (internal addresses as settings.json "web" allows).',
  'No variable of the app’s own environment (API keys, tokens) reaches them; the whole process tree dies on timeout or cancel.',
  'A call may ask for sandbox: false (needed for SSH or reading a secret location); only your decision for that one call runs it.',
];

/** What "no sandbox" means for approvals. */
export const NO_SANDBOX_CONSEQUENCE =
  'Commands run unconfined: command rules stop auto-allowing and every command asks; global script tools marked always_allow still run, unconfined.';

/** The sandbox state as a view. */
export function sandboxStatusView(state: SandboxState): SandboxStatusView {
  return state.kind === 'ready'
    ? { state: 'ready', backend: state.backend, policy: [...SANDBOX_POLICY] }
    : { state: 'unavailable', reason: state.reason, consequence: NO_SANDBOX_CONSEQUENCE };
}

/** The one line the CLI prints the first time a call would run unconfined. */
export function sandboxUnavailableNote(reason: string): string {
  return `note: no OS sandbox here (${reason}). ${NO_SANDBOX_CONSEQUENCE}\n`;
}
