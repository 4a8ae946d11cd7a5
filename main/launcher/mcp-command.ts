// `agenvoy mcp serve [--approve ask|deny] [--workspace DIR]`: the script tools and their authoring helpers over stdio;
// `mcp changed` and `mcp accept`: trusted MCP tools whose definition changed (main/cli/mcp-trust-command.ts).
import path from 'node:path';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import type { ServeApproval } from '../mcp-server/run-serve';
import { runMcpServe } from '../mcp-server/run-serve';
import type { CliIo } from '../cli/io';
import { UsageError } from '../cli/io';

/** Runs an `mcp` sub-command; resolves to the exit status. */
export async function mcpCommand(argv: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === 'changed') return (await import('../cli/mcp-trust-command')).changed(rest, io);
  if (sub === 'accept') return (await import('../cli/mcp-trust-command')).accept(rest, io);
  if (sub !== 'serve')
    throw new UsageError(`unknown mcp command "${sub ?? ''}": use serve, changed or accept`);
  const { values } = parseArgs({
    args: rest,
    options: { approve: { type: 'string', default: 'ask' }, workspace: { type: 'string' } },
  });
  if (values.approve !== 'ask' && values.approve !== 'deny')
    throw new UsageError('--approve must be ask or deny');
  // stdout carries the protocol: nothing else may be written to it.
  const stdout = new Writable({
    write(chunk: Buffer, _encoding, done) {
      io.stdout(chunk.toString('utf8'));
      done();
    },
  });
  let onSignal: () => void = () => {};
  const stop = new Promise<void>((resolve) => (onSignal = resolve));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await runMcpServe({
      home: io.env.AGENVOY_HOME ? path.resolve(io.env.AGENVOY_HOME) : undefined,
      workspace: path.resolve(io.cwd, values.workspace ?? '.'),
      approve: values.approve as ServeApproval,
      stdin: io.stdin as NodeJS.ReadStream,
      stdout,
      stop,
    });
    return 0;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
