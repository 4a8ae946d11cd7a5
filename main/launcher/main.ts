// Entry of the `agenvoy` command: routes to its sub-commands.
import type { CliIo } from '../cli/io';
import { processIo, UsageError } from '../cli/io';

type Command = (argv: string[], io: CliIo) => Promise<number>;

// Each command loads its own modules when it runs, so `tools list` never loads the chat, the store or the web server
// (docs/hosts.md, "Fast start").
const COMMANDS = new Map<string, () => Promise<Command>>([
  ['setup', async () => (await import('../cli/setup-command')).setupCommand],
  ['chat', async () => (await import('../cli/chat-command')).chatCommand],
  ['tools', async () => (await import('../cli/tools-command')).toolsCommand],
  ['mcp', async () => (await import('./mcp-command')).mcpCommand],
  ['web', async () => (await import('./web-command')).webCommand],
  ['secrets', async () => (await import('../cli/secrets-command')).secretsCommand],
  ['rules', async () => (await import('../cli/rules-command')).rulesCommand],
  ['trust', async () => (await import('../cli/trust-command')).trustCommand],
  ['doctor', async () => (await import('../cli/doctor-command')).doctorCommand],
]);

const USAGE = `usage: agenvoy <command> [options]

commands:
  setup [--provider anthropic|openai|openrouter|deepseek|ollama|lmstudio|custom] [--base-url URL]
        [--model NAME] [--no-key | --api-key-name KEY] [--no-test]
                                                  choose the model provider (asks step by step on a
                                                  terminal), test the connection and save
  chat "<prompt>" [--chat ID] [--workspace DIR] [--provider KIND] [--base-url URL]
       [--model NAME] [--approve ask|allow|deny] [--json] [--attach FILE]...
       [--reasoning default|off|low|medium|high]
                                                  run one agent turn headlessly; --attach sends a
                                                  file with the prompt (docs/attachments.md);
                                                  --reasoning sets the chat's level
  tools list [--json] [--system]                  every registered tool
  tools search "<query>" [--limit N] [--json]     ranked find_tools matches
  tools lint [--dir DIR] [--json]                 design-rule findings
  tools call <name> ['<json-args>' | - | @FILE] [--yes] [--json] [--workspace DIR]
                                                  run one tool through the dispatcher (- reads the
                                                  arguments from standard input, @FILE from a file)
  mcp serve [--approve ask|deny] [--workspace DIR]  serve the script tools and their authoring helpers over stdio
  mcp changed [--json]                            trusted MCP tools whose definition changed (they ask until accepted)
  mcp accept SERVER TOOL@ID... [--json]           trust those definitions, each the one "mcp changed" showed as ID
  web [--port N] [--workspace DIR] [--rebuild] [--open]
                                                  browser mode: the app on 127.0.0.1, its URL (with token) printed;
                                                  --open also opens it in the default browser
  secrets set KEY [--stdin]                       store a secret (masked prompt, or piped with --stdin)
  secrets delete KEY                              remove a secret from the keychain and the file
  secrets list [--json]                           secret names, where each lives, the active backend
  rules list [--json]                             approval rules (shipped defaults and yours)
  rules add --tool GLOB [--pattern P] [--except GLOB]... --allow|--deny [--json]
                                                  add a persisted approval rule
  rules revoke ID [--json]                        revoke a rule (a revoked default stays revoked)
  trust list [--json]                             folders whose workspace tools you trust
  trust add [DIR] [--json]                        trust DIR's workspace tools (default: this folder)
  trust revoke DIR [--json]                       stop trusting DIR's workspace tools
  doctor [--json]                                 the OS sandbox, keychain, Chromium and provider of this machine

Every command honours AGENVOY_HOME (default ~/.config/agenvoy).
`;

/** Runs the CLI with `argv` (without node and script); resolves to the exit status. */
export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  const [command, ...rest] = argv;
  try {
    const load = command === undefined ? undefined : COMMANDS.get(command);
    if (load) return await (await load())(rest, io);
    if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
      io.stdout(USAGE);
      return command === undefined ? 2 : 0;
    }
    throw new UsageError(`unknown command "${command}"\n\n${USAGE}`);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`agenvoy: ${error.message}\n`);
      return error.exitCode;
    }
    io.stderr(`agenvoy: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
