// Reads mcp.json (docs/tools.md, "MCP servers"). The zod parser (parse-config.ts) is loaded only when there is a file
// to parse, so a host with no MCP servers never pays for it at start (docs/hosts.md, "Fast start").
import fs from 'node:fs/promises';
import type { McpConfigFile } from './config-types';

/** Reads and parses the mcp.json at `file`; a missing or empty file means no servers. */
export async function readMcpConfig(file: string): Promise<McpConfigFile> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { file, servers: [], error: null, warnings: [] };
    return { file, servers: [], error: `${file}: cannot read: ${(error as Error).message}`, warnings: [] };
  }
  if (text.trim() === '') return { file, servers: [], error: null, warnings: [] };
  const { parseMcpConfig } = await import('./parse-config');
  return parseMcpConfig(text, file);
}
