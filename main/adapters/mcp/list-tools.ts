// tools/list with pagination, within one time budget.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { plainOptions } from './request-options';

/** Every tool of the server, following `nextCursor`; all pages together get `budgetMs` (at least 1 s). */
export async function listAllTools(client: Client, budgetMs: number): Promise<Tool[]> {
  const deadline = Date.now() + Math.max(1000, budgetMs);
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined, plainOptions(deadline - Date.now()));
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}
