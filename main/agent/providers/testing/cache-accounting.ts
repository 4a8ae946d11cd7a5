// Bills Anthropic Messages requests the way the prompt cache does, closely enough to measure how much of an agent
// turn is read from cache: a request's prefix up to one of its breakpoints that an earlier request wrote (up to one of
// its own breakpoints) is a cache read; the rest up to the request's last breakpoint is a cache write; what follows
// the last breakpoint is plain input. Tokens are estimated as one per four characters of a block's JSON.
import { createHash } from 'node:crypto';

/** What one request cost, in estimated tokens. */
export interface CacheBill {
  /** Input neither read from nor written to the cache. */
  input: number;
  cacheRead: number;
  cacheWrite: number;
  /** All input tokens of the request. */
  total: number;
}

type Unit = { text: string; breakpoint: boolean };

/** Remembers the prefixes earlier requests wrote and bills each new request against them. */
export class CacheAccounting {
  private readonly written = new Set<string>();

  /** Bills one request body (POST /v1/messages) and records the prefixes it writes. */
  bill(body: Record<string, unknown>): CacheBill {
    const units = unitsOf(body);
    let hash = createHash('sha256').update(String(body.model)).digest('hex');
    let tokens = 0;
    let read = 0;
    let lastBreakpoint = 0;
    const prefixes: string[] = [];
    for (const unit of units) {
      hash = createHash('sha256').update(hash).update(unit.text).digest('hex');
      tokens += Math.ceil(unit.text.length / 4);
      if (!unit.breakpoint) continue;
      if (this.written.has(hash)) read = tokens;
      lastBreakpoint = tokens;
      prefixes.push(hash);
    }
    for (const prefix of prefixes) this.written.add(prefix);
    const cacheWrite = Math.max(0, lastBreakpoint - read);
    return { input: tokens - read - cacheWrite, cacheRead: read, cacheWrite, total: tokens };
  }
}

/** The request in the order the cache reads it: tools, system, then each message's blocks. */
function unitsOf(body: Record<string, unknown>): Unit[] {
  const units: Unit[] = [];
  const push = (value: unknown, prefix = '') => {
    const { cache_control: mark, ...rest } = value as Record<string, unknown>;
    units.push({ text: prefix + JSON.stringify(rest), breakpoint: mark !== undefined });
  };
  for (const tool of (body.tools as unknown[] | undefined) ?? []) push(tool, 'tool:');
  const system = body.system;
  if (typeof system === 'string') units.push({ text: `system:${system}`, breakpoint: false });
  else for (const block of (system as unknown[] | undefined) ?? []) push(block, 'system:');
  for (const message of (body.messages as Array<{ role: string; content: unknown[] }> | undefined) ?? []) {
    for (const block of message.content) push(block, `${message.role}:`);
  }
  return units;
}
