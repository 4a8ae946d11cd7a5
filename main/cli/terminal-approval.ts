// The CLI's confirm gate (tools call, chat): a policy, a terminal that asks through the TerminalPrompter, the rules.
import type { ApprovalPolicy, ConfirmGate } from '../gate/confirm-gate';
import { HEADLESS_APPROVAL_TIMEOUT_MS, whyAsked } from '../gate/confirm-gate';
import { approvalTimeoutFromEnv, createConfirmGate } from '../gate/create-gate';
import { TerminalPrompter } from '../gate/terminal-prompter';
import { agenvoyHome } from '../core/paths';
import type { CliIo } from './io';

/**
 * A gate for CLI commands over $AGENVOY_HOME's rules: `allow` allows, `deny` refuses what is not alwaysAllow,
 * `ask` asks on the terminal (or, with none, denies unless a rule allows). `allowFlag` names the flag that allows;
 * `personal` says that flag is a person's decision for this one call (`tools call --yes`), not a blanket policy.
 */
export function cliGate(io: CliIo, policy: ApprovalPolicy, allowFlag: string, personal = false): ConfirmGate {
  return createConfirmGate({
    home: agenvoyHome(io.env),
    env: io.env,
    policy,
    personal,
    prompter:
      io.interactive && policy === 'ask'
        ? new TerminalPrompter({
            input: io.stdin,
            write: io.stderr,
            echo: io.stdin === process.stdin ? process.stderr : undefined,
          })
        : null,
    timeoutMs: approvalTimeoutFromEnv(io.env, HEADLESS_APPROVAL_TIMEOUT_MS),
    unattendedMessage: (item) => {
      const { request } = item;
      const head = `denied: ${request.tool} needs approval${whyAsked(item)} and there is no terminal to ask; `;
      // An untrusted workspace tool: no rule can help, trusting the folder (or a person's --yes) can. One that is new
      // or changed since its folder was trusted says so (docs/security.md).
      if (request.source.kind === 'script' && !request.source.trusted) {
        if (request.source.untrusted)
          return (
            `denied: ${request.tool} needs approval (it ${request.source.untrusted}) and there is no terminal to ` +
            `ask; agenvoy trust add ${request.workspace} trusts the folder as it is now, or run it once with --yes`
          );
        return `${head}trust the folder with agenvoy trust add ${request.workspace}, or run it once with --yes`;
      }
      // Only a person's decision for this call: --yes typed for it; --approve allow never covers it.
      if (item.personOnly) return `${head}run it yourself with agenvoy tools call ${request.tool} … --yes`;
      if (item.sensitive || item.noStanding || item.compound) return `${head}pass ${allowFlag} to allow it`;
      // A voided rule is renewed by adding it again (the same tool and pattern), which approves the new definition.
      if (item.voidedRules.length > 0)
        return (
          `${head}pass ${allowFlag} to allow it, or, once you have checked what changed, add the voided rule again ` +
          `to approve the new definition (agenvoy rules list shows it as VOID, with its tool and pattern)`
        );
      return `${head}pass ${allowFlag} to allow it, or add a rule: agenvoy rules add --tool ${request.tool} --allow`;
    },
  });
}
