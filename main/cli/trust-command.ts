// `agenvoy trust list|add|revoke`: the folders whose workspace tools the person trusts (docs/security.md). A person
// typing `trust add` is the decision, with or without a terminal; nothing is ever trusted implicitly.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { scanDir } from '../adapters/script/discover';
import { agenvoyHome, agenvoyPaths, workspaceScripts } from '../core/paths';
import type { TrustedFolder } from '../trust/trust-file';
import { realFolder, TrustedFolders, TrustError } from '../trust/trusted-folders';
import type { CliIo } from './io';
import { UsageError } from './io';

/** Runs a `trust` sub-command; resolves to the exit status. */
export async function trustCommand(argv: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = argv;
  const store = TrustedFolders.inDesktop(agenvoyPaths(agenvoyHome(io.env)).desktop);
  try {
    switch (sub) {
      case 'list':
        return await list(store, rest, io);
      case 'add':
        return await add(store, rest, io);
      case 'revoke':
        return await revoke(store, rest, io);
      default:
        throw new UsageError(`unknown trust command "${sub ?? ''}": use list, add or revoke`);
    }
  } catch (error) {
    if (!(error instanceof TrustError)) throw error;
    io.stderr(`agenvoy: ${error.message}\n`);
    return 1;
  }
}

async function list(store: TrustedFolders, argv: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { json: { type: 'boolean' } } });
  const state = await store.read();
  const folders = state.kind === 'ok' ? state.file.folders : [];
  const problem =
    state.kind === 'damaged' ? `${state.problem}; nothing is trusted until it is fixed or removed` : null;
  const rows = await Promise.all(
    folders.map(async (folder) => ({ ...folder, exists: (await realFolder(folder.path)) === folder.path })),
  );
  if (values.json) {
    io.stdout(JSON.stringify({ folders: rows, problem, file: store.file }, null, 2) + '\n');
  } else if (problem) {
    io.stderr(`agenvoy: ${problem}\n`);
  } else if (rows.length === 0) {
    io.stdout('no trusted folders: workspace tools ask on every call and get no secrets\n');
  } else {
    for (const row of rows)
      io.stdout(
        `${row.path}  (since ${row.trustedAt.slice(0, 19).replace('T', ' ')})${row.exists ? '' : '  GONE'}\n`,
      );
  }
  return problem ? 1 : 0;
}

async function add(store: TrustedFolders, argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { json: { type: 'boolean' } },
  });
  if (positionals.length > 1) throw new UsageError('trust add takes one folder');
  const asked = path.resolve(io.cwd, positionals[0] ?? '.');
  const { folder, added } = await store.add(asked);
  const tools = await toolsIn(folder.path);
  if (values.json) {
    io.stdout(JSON.stringify({ ...folder, added, tools }, null, 2) + '\n');
    return 0;
  }
  const via = folder.path === asked ? '' : ` (${asked} leads there)`;
  io.stdout(`${added ? 'trusted' : 'already trusted'} ${folder.path}${via}\n`);
  io.stdout(
    tools.length > 0
      ? `its workspace tools now run as their tool.json says and get their secrets: ${tools.join(', ')}\n`
      : 'it has no workspace tools yet\n',
  );
  return 0;
}

async function revoke(store: TrustedFolders, argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { json: { type: 'boolean' } },
  });
  const [target] = positionals;
  if (!target || positionals.length > 1)
    throw new UsageError('trust revoke needs one folder (see agenvoy trust list)');
  const removed: TrustedFolder | null = await store.revoke(path.resolve(io.cwd, target));
  if (!removed) {
    io.stderr(`agenvoy: ${target} is not a trusted folder (see agenvoy trust list)\n`);
    return 1;
  }
  io.stdout(values.json ? JSON.stringify(removed, null, 2) + '\n' : `no longer trusted: ${removed.path}\n`);
  return 0;
}

// What trusting the folder lets loose: the names of the tools in its script folder, loaded or not.
async function toolsIn(folder: string): Promise<string[]> {
  const found = await scanDir({ dir: workspaceScripts(folder), scope: 'workspace', workspace: folder });
  return found.tools.map((tool) => tool.toolName).sort();
}
