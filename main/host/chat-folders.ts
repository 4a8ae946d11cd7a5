// A folder of its own for each new chat (docs/security.md): ~/Agenvoy/<chat title>, so "inside the workspace" means
// one project's files, not the whole home folder. `~` is the home folder of the environment the host runs with.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** The folder under the home folder that holds the chats' own folders. */
export const CHATS_FOLDER_NAME = 'Agenvoy';

// Names Windows refuses for a file or folder, whatever the extension.
const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;
// Folder names stay readable in a file manager and far below every file system's 255-byte limit.
const MAX_NAME_LENGTH = 80;
const MAX_SUFFIX = 10_000;

/** The home folder of `env` ($HOME, else %USERPROFILE%, else the OS's idea of it). */
export function homeFolder(env: NodeJS.ProcessEnv): string {
  const home = env.HOME || env.USERPROFILE || os.homedir();
  return path.resolve(home);
}

/** ~/Agenvoy: where chats get their own folders, and the app's own workspace when settings name none. */
export function chatsRoot(env: NodeJS.ProcessEnv): string {
  return path.join(homeFolder(env), CHATS_FOLDER_NAME);
}

/** A folder name made from a chat title: no separators, control or reserved characters, no leading dot. */
export function safeFolderName(title: string, fallback = 'Chat'): string {
  let name = title
    .normalize('NFC')
    // Separators, characters Windows forbids, and control characters.
    // eslint-disable-next-line no-control-regex
    .replace(/[/\\:*?"<>|\u0000-\u001f\u007f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    // A leading dot hides the folder (and `..` would climb out); trailing dots and spaces vanish on Windows.
    .replace(/^[.\s]+/, '')
    .replace(/[.\s]+$/, '');
  if (name.length > MAX_NAME_LENGTH) name = name.slice(0, MAX_NAME_LENGTH).replace(/[.\s]+$/, '');
  if (name === '') name = fallback;
  if (RESERVED.test(name)) name = `${name} chat`;
  return name;
}

/** Creates a new folder for a chat under `root` named after `title` ("title 2", "title 3"… when taken). */
export async function createChatFolder(root: string, title: string): Promise<string> {
  await fs.mkdir(root, { recursive: true });
  const base = safeFolderName(title);
  for (let n = 1; n <= MAX_SUFFIX; n++) {
    const folder = path.join(root, n === 1 ? base : `${base} ${n}`);
    try {
      // Not recursive: creating it is the claim, so two chats never share one.
      await fs.mkdir(folder);
      return folder;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  throw new Error(`no free folder name for "${base}" in ${root}`);
}

/**
 * Renames a chat's still-empty folder that was made for a placeholder title to one named after the real title;
 * returns the new folder, or null when it stays as it is (not one of ours, not empty, or nothing to change).
 */
export async function renameChatFolder(
  root: string,
  folder: string,
  placeholder: string,
  title: string,
): Promise<string | null> {
  if (path.dirname(folder) !== root) return null;
  const base = safeFolderName(placeholder);
  const name = path.basename(folder);
  if (name !== base && !new RegExp(`^${escapeRegExp(base)} \\d+$`).test(name)) return null;
  if (safeFolderName(title) === base) return null;
  const entries = await fs.readdir(folder).catch(() => null);
  if (entries === null || entries.length > 0) return null;
  const next = await createChatFolder(root, title);
  await fs.rmdir(folder).catch(() => undefined);
  return next;
}

/** Whether `folder` is the home folder itself (compared through symlinks). */
export async function isHomeFolder(folder: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  const [a, b] = await Promise.all([real(folder), real(homeFolder(env))]);
  return a === b;
}

async function real(folder: string): Promise<string> {
  return fs.realpath(folder).catch(() => path.resolve(folder));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
