// `agenvoy web [--port N] [--workspace DIR] [--open]`: browser mode — the app served to a local browser from this
// process; `--open` also opens it in the default browser (what `npm start` does without an Electron binary).
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openAppHost } from '../host/open-app-host';
import { writeLaunchFile } from './launch-file';
import { openBrowser } from './open-browser';
import { ensureRenderer } from '../web/renderer-build';
import { startWebServer } from '../web/web-server';
import { LAUNCH_LINK_MS } from '../web/web-token';
import type { CliIo } from '../cli/io';
import { UsageError } from '../cli/io';

/** What tests replace: a prebuilt renderer folder, and a signal that stops the server like Ctrl+C. */
export interface WebCommandOptions {
  rendererDir?: string;
  stop?: AbortSignal;
  /** Told the server once it listens. */
  started?: (url: string) => void;
}

/** Serves until SIGINT, SIGTERM or SIGHUP; resolves to the exit status. */
export async function webCommand(
  argv: string[],
  io: CliIo,
  options: WebCommandOptions = {},
): Promise<number> {
  const stop = options.stop;
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      workspace: { type: 'string' },
      rebuild: { type: 'boolean' },
      open: { type: 'boolean' },
    },
  });
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError('--port must be a port number (0-65535)');
  const rendererDir =
    options.rendererDir ??
    (await ensureRenderer({ rebuild: Boolean(values.rebuild), log: (line) => io.stderr(`${line}\n`) }));
  const host = await openAppHost({
    mode: 'web',
    // Without --workspace each new chat gets a folder of its own (~/Agenvoy/<title>), not the start folder.
    ...(values.workspace !== undefined ? { workspace: path.resolve(io.cwd, values.workspace) } : {}),
    env: io.env,
  });
  let server;
  try {
    server = await startWebServer({ host, rendererDir, port, launchLink: values.open === true });
  } catch (error) {
    await host.close();
    throw new Error(`cannot listen on 127.0.0.1:${port}: ${(error as Error).message}`);
  }
  // A closed terminal (SIGHUP) stops it as Ctrl+C does, cleanly: Node's default for SIGHUP ended the process at once,
  // leaving the launch page on disk and tasks and MCP servers to the next start's crash recovery. Listened for before
  // the URL is printed or a browser opened: a hang-up while the opener runs was Node's default again.
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  const stopped = new Promise<boolean>((resolve) => {
    const done = (signal?: NodeJS.Signals) => {
      for (const name of signals) process.off(name, done);
      resolve(signal === 'SIGHUP');
    };
    for (const name of signals) process.on(name, done);
    if (stop?.aborted) done();
    stop?.addEventListener('abort', () => done(), { once: true });
  });
  io.stdout(`Agenvoy browser mode: open ${server.url}\n`);
  options.started?.(server.url);
  io.stderr('(127.0.0.1 only; the token in the URL is the key to this session. Ctrl+C stops it.)\n');
  let launchFile: { url: string; remove(): void } | null = null;
  if (values.open) {
    // The opener's command line is readable by other local users, who could use a link on it before the browser
    // starts: it gets the address of a page only this user can read, which leads to the one-time launch link.
    try {
      launchFile = writeLaunchFile(server.launchUrl ?? server.url, LAUNCH_LINK_MS);
    } catch (error) {
      io.stderr(`not opening a browser: cannot write the launch page (${(error as Error).message})\n`);
    }
  }
  if (launchFile) {
    const opened = await openBrowser(launchFile.url, {
      env: io.env,
      failed: (why) => io.stderr(`the browser may not have opened (${why}): open the URL above\n`),
    });
    io.stderr(
      opened.opened
        ? `opening it in your default browser (${opened.command})\n`
        : `not opening a browser: ${opened.reason}; open the URL above\n`,
    );
  }
  const hungUp = await stopped;
  launchFile?.remove();
  // After a hang-up there is no terminal to tell.
  if (!hungUp) io.stderr('stopping: cancelling turns and tasks, stopping MCP servers…\n');
  await server.close();
  await host.close();
  return 0;
}
