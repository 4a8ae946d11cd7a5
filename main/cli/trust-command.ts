// `agenvoy trust list|add|revoke`: the folders whose workspace tools the person trusts (docs/security.md). A person
// typing `trust add` is the decision, with or without a terminal; nothing is ever trusted implicitly. Trusting pins
// the tools the folder holds at that moment: one that arrives or changes later asks until the folder is trusted again.
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { PinnedTool } from '../adapters/script/workspace-pins';
import { changeSinceTrust, judgeFolder, pinsToRecord } from '../adapters/script/workspace-pins';
import { agenvoyHome, agenvoyPaths } from '../core/paths';
import type { TrustedFolder } from '../core/trust/trust-file';
import { realFolder, retrustReason, TrustedFolders, TrustError } from '../core/trust/trusted-folders';
import type { CliIo } from './io';
import { UsageError } from './io';
import { terminalText } from './terminal-text';

/** Runs a `trust` sub-command; resolves to the exit status. */
export async function trustCommand(argv: string[], raw: CliIo): Promise<number> {
  // Folder and file names come from the repository being trusted: control sequences in them show as escapes (JSON
  // output has none left to escape), so none reaches the terminal while the person decides (docs/security.md).
  const io: CliIo = {
    ...raw,
    stdout: (text) => raw.stdout(terminalText(text)),
    stderr: (text) => raw.stderr(terminalText(text)),
  };
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
    folders.map(async (folder) => ({
      path: folder.path,
      trustedAt: folder.trustedAt,
      exists: (await realFolder(folder.path)) === folder.path,
      // null: trusted before tools were recorded, so none of its tools is trusted until it is trusted again.
      tools: folder.tools === null ? null : [...new Set(folder.tools.map((tool) => tool.name))].sort(),
    })),
  );
  if (values.json) {
    io.stdout(JSON.stringify({ folders: rows, problem, file: store.file }, null, 2) + '\n');
  } else if (problem) {
    io.stderr(`agenvoy: ${problem}\n`);
  } else if (rows.length === 0) {
    io.stdout('no trusted folders: workspace tools ask on every call and get no secrets\n');
  } else {
    for (const row of rows) {
      const since = row.trustedAt.slice(0, 19).replace('T', ' ');
      const tools =
        row.tools === null ? '' : `  ${row.tools.length} tool${row.tools.length === 1 ? '' : 's'} trusted`;
      io.stdout(`${row.path}  (since ${since})${tools}${row.exists ? '' : '  GONE'}\n`);
      if (row.tools === null) io.stdout(`  ${retrustReason(row.path)}\n`);
    }
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
  const real = await realFolder(asked);
  if (real === null) throw new TrustError(`${asked} is not a folder`);
  // The tools as they are now are what the person is trusting: exactly those are pinned.
  const judged = await judgeFolder(real, await store.check(real));
  const { folder, added, previous } = await store.add(real, pinsToRecord(judged));
  const names = judged.map((entry) => entry.tool.toolName);
  const changed = judged.flatMap((entry) => {
    const change = changeSinceTrust(entry);
    return change ? [{ name: entry.tool.toolName, change }] : [];
  });
  const notCovered = judged.flatMap((entry) =>
    entry.pin.ok ? [] : [{ name: entry.tool.toolName, reason: entry.pin.reason }],
  );
  if (values.json) {
    io.stdout(
      JSON.stringify(
        { path: folder.path, trustedAt: folder.trustedAt, added, tools: names, changed, notCovered },
        null,
        2,
      ) + '\n',
    );
    return 0;
  }
  const via = folder.path === asked ? '' : ` (${asked} leads there)`;
  const retrusted = previous !== null && (changed.length > 0 || previous.tools === null);
  io.stdout(`${added ? 'trusted' : retrusted ? 'trusted again' : 'already trusted'} ${folder.path}${via}\n`);
  io.stdout(addedText(judged, changed, notCovered));
  return 0;
}

// What trusting now covers: the tools pinned, which of them are new or changed since the last time, which could not
// be pinned, and that later ones ask.
function addedText(
  judged: PinnedTool[],
  changed: Array<{ name: string; change: string }>,
  notCovered: Array<{ name: string; reason: string }>,
): string {
  const pinned = judged.filter((entry) => entry.pin.ok).map((entry) => entry.tool.toolName);
  const lines: string[] = [];
  if (pinned.length > 0)
    lines.push(
      `its workspace tools now run as their tool.json says and get their secrets: ${pinned.join(', ')}`,
    );
  else if (judged.length === 0) lines.push('it has no workspace tools yet');
  if (changed.length > 0)
    lines.push(
      `trusted now, as they are: ${changed.map((entry) => `${entry.name} (${entry.change === 'changed' ? 'it or a file beside it changed' : 'new'} since you last trusted it)`).join(', ')}`,
    );
  for (const entry of notCovered) lines.push(`not trusted: ${entry.name} cannot be pinned (${entry.reason})`);
  lines.push(
    'tools added or changed later ask on every call and get no secrets until you trust the folder again',
  );
  return lines.map((line) => `${line}\n`).join('');
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
