// The page a browser opener is handed for `agenvoy web --open` (docs/security.md, "Browser mode and mcp serve"): the
// opener's command line, and the browser's after it, are readable by every local user, and a browser takes a while to
// start, so another user could use a one-time link it carried before the browser does. The opener gets the address
// of a file only this user can read (0600, in a fresh 0700 folder), whose refresh leads to the one-time link.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** A written launch page: its file:// address, and how to remove it. */
export interface LaunchFile {
  url: string;
  remove(): void;
}

/** Writes the page that leads to `target` (an http URL); removed by `remove()` or after `lifetimeMs`. */
export function writeLaunchFile(
  target: string,
  lifetimeMs: number,
  tmpdir: string = os.tmpdir(),
): LaunchFile {
  const folder = fs.mkdtempSync(path.join(tmpdir, 'agenvoy-open-'));
  // mkdtemp makes the folder 0700 already; said again so a umask or a platform default cannot widen it.
  fs.chmodSync(folder, 0o700);
  const file = path.join(folder, 'open.html');
  const href = escapeHtml(target);
  const page =
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">\n' +
    `<meta http-equiv="refresh" content="0; url=${href}">\n` +
    '<title>Agenvoy</title></head>\n' +
    `<body><p><a href="${href}">Open Agenvoy</a></p></body></html>\n`;
  // wx: never through a name someone else put there first.
  fs.writeFileSync(file, page, { mode: 0o600, flag: 'wx' });
  let removed = false;
  const remove = () => {
    if (removed) return;
    removed = true;
    clearTimeout(timer);
    fs.rmSync(folder, { recursive: true, force: true });
  };
  const timer = setTimeout(remove, lifetimeMs);
  timer.unref();
  return { url: pathToFileURL(file).href, remove };
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
