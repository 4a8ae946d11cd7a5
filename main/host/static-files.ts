// Serves the built renderer's files: only below its folder, only known types, never a directory listing.
import fs from 'node:fs';
import path from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** A file to send, or null when the path is not one of the renderer's files. */
export interface StaticFile {
  file: string;
  type: string;
}

/** Resolves a URL path inside `root`; refuses traversal, hidden names, unknown types and anything not a file. */
export function resolveStatic(root: string, urlPath: string): StaticFile | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const relative = path.posix.normalize(decoded === '/' ? '/index.html' : decoded).replace(/^\/+/, '');
  if (relative.split('/').some((part) => part.startsWith('.'))) return null;
  const file = path.resolve(root, relative);
  if (!file.startsWith(path.resolve(root) + path.sep)) return null;
  const type = TYPES[path.extname(file).toLowerCase()];
  if (!type) return null;
  try {
    if (!fs.statSync(file).isFile()) return null;
  } catch {
    return null;
  }
  return { file, type };
}

/** Whether a resolved file is a page (HTML), which needs the token, rather than an asset. */
export function isPageFile(found: StaticFile): boolean {
  return found.type.startsWith('text/html');
}
