// The default rule set (SPEC §8): read-only commands run without asking; every rule is visible and revocable.
import type { DefaultRule } from './rule-types';

// git's diff family writes a file with --output and runs an external program with --ext-diff; git also accepts
// unambiguous abbreviations (`--outp=`), so the exceptions cover the prefixes.
const GIT_WRITES = ['** --ou**', '** --ext**'];

/** The rules that ship with the app, each for the built-in run_command. */
export const DEFAULT_RULES: readonly DefaultRule[] = [
  {
    id: 'default-pwd',
    tool: 'run_command',
    pattern: 'pwd',
    except: [],
    effect: 'allow',
    note: 'prints the working folder',
  },
  {
    id: 'default-ls',
    tool: 'run_command',
    pattern: 'ls **',
    except: [],
    effect: 'allow',
    note: 'lists files',
  },
  {
    id: 'default-git-status',
    tool: 'run_command',
    pattern: 'git status **',
    except: [],
    effect: 'allow',
    note: 'shows the work tree state',
  },
  {
    id: 'default-git-log',
    tool: 'run_command',
    pattern: 'git log **',
    except: GIT_WRITES,
    effect: 'allow',
    note: 'shows history (not --output, --ext-diff)',
  },
  {
    id: 'default-git-diff',
    tool: 'run_command',
    pattern: 'git diff **',
    except: GIT_WRITES,
    effect: 'allow',
    note: 'shows changes (not --output, --ext-diff)',
  },
  {
    id: 'default-git-show',
    tool: 'run_command',
    pattern: 'git show **',
    except: GIT_WRITES,
    effect: 'allow',
    note: 'shows an object (not --output, --ext-diff)',
  },
  {
    id: 'default-git-branch',
    tool: 'run_command',
    pattern: 'git branch',
    except: [],
    effect: 'allow',
    note: 'lists local branches (bare form only: arguments create or delete)',
  },
  {
    id: 'default-git-rev-parse',
    tool: 'run_command',
    pattern: 'git rev-parse **',
    except: [],
    effect: 'allow',
    note: 'resolves names to commits',
  },
  {
    id: 'default-whoami',
    tool: 'run_command',
    pattern: 'whoami',
    except: [],
    effect: 'allow',
    note: 'prints the user name',
  },
  {
    id: 'default-which',
    tool: 'run_command',
    pattern: 'which **',
    except: [],
    effect: 'allow',
    note: 'locates a program',
  },
];
