// The default rule set (docs/security.md): read-only commands run without asking; every rule is visible
// and revocable. Each is an argv predicate over what will run (the pattern is only its visible summary), applies
// only to the built-in command tools running in the OS sandbox with a working folder inside the workspace, and
// never accepts an option that writes a file or starts a program. Their operands that may name paths (`operands`)
// must lead inside the workspace: `ls /` or `git diff /srv ~/.config` ask.
import { pathOperands } from './default-rule-operands';
import { gitBranchListing, gitStatus, gitSubcommand, lsListing, plainCommand } from './read-only-arguments';
import type { DefaultRule } from './rule-types';

const GIT_NOTE =
  'no global options, --output, --ext-diff, --textconv, --no-index…; paths only inside the work tree, in a ' +
  'repository inside the workspace; asks if the repository config runs programs';

// git's arguments after the subcommand: revisions (`HEAD~1`, `main..feature`) resolve to missing paths inside the
// work tree and pass; a path outside it would make `git diff` compare files directly.
const gitOperands = (argv: readonly string[]) => pathOperands(argv.slice(2));

/** The rules that ship with the app, each for the built-in run_command. */
export const DEFAULT_RULES: readonly DefaultRule[] = [
  {
    id: 'default-pwd',
    tool: 'run_command',
    pattern: 'pwd',
    except: [],
    effect: 'allow',
    note: 'prints the working folder',
    accepts: (argv) => plainCommand(argv, 'pwd', { arguments: false, allowedOptions: ['-L', '-P'] }),
  },
  {
    id: 'default-ls',
    tool: 'run_command',
    pattern: 'ls **',
    except: [],
    effect: 'allow',
    note: 'lists files (inside the workspace; no -L, which follows links out while it recurses)',
    accepts: lsListing,
    operands: (argv) => pathOperands(argv.slice(1)),
  },
  {
    id: 'default-git-status',
    tool: 'run_command',
    pattern: 'git status **',
    except: [],
    effect: 'allow',
    note: `shows the work tree state (${GIT_NOTE}; no -v, which prints the staged diff)`,
    accepts: gitStatus,
    operands: gitOperands,
  },
  {
    id: 'default-git-log',
    tool: 'run_command',
    pattern: 'git log **',
    except: [],
    effect: 'allow',
    note: `shows history (${GIT_NOTE})`,
    accepts: (argv) => gitSubcommand(argv, 'log'),
    operands: gitOperands,
  },
  {
    id: 'default-git-diff',
    tool: 'run_command',
    pattern: 'git diff **',
    except: [],
    effect: 'allow',
    note: `shows changes (${GIT_NOTE})`,
    accepts: (argv) => gitSubcommand(argv, 'diff'),
    operands: gitOperands,
  },
  {
    id: 'default-git-show',
    tool: 'run_command',
    pattern: 'git show **',
    except: [],
    effect: 'allow',
    note: `shows an object (${GIT_NOTE})`,
    accepts: (argv) => gitSubcommand(argv, 'show'),
    operands: gitOperands,
  },
  {
    id: 'default-git-branch',
    tool: 'run_command',
    pattern: 'git branch',
    except: [],
    effect: 'allow',
    note: 'lists local branches (bare, or with listing options only: arguments create or delete)',
    accepts: gitBranchListing,
  },
  {
    id: 'default-git-rev-parse',
    tool: 'run_command',
    pattern: 'git rev-parse **',
    except: [],
    effect: 'allow',
    note: `resolves names to commits (${GIT_NOTE})`,
    accepts: (argv) => gitSubcommand(argv, 'rev-parse'),
    operands: gitOperands,
  },
  {
    id: 'default-whoami',
    tool: 'run_command',
    pattern: 'whoami',
    except: [],
    effect: 'allow',
    note: 'prints the user name',
    accepts: (argv) => plainCommand(argv, 'whoami', { arguments: false }),
  },
  {
    id: 'default-which',
    tool: 'run_command',
    pattern: 'which **',
    except: [],
    effect: 'allow',
    note: 'locates a program (by name; a path only inside the workspace)',
    accepts: (argv) => plainCommand(argv, 'which', { arguments: true }),
    // Its operands are program names looked up on PATH; only one with a `/` names a file (it is tested for
    // being executable and printed), so only those must stay inside.
    operands: (argv) => pathOperands(argv.slice(1)).filter((name) => name.includes('/')),
  },
];
