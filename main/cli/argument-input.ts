// Where `agenvoy tools call NAME [ARGS]` gets its JSON arguments: the command line, standard input (`-`) or a file
// (`@FILE`), since a command line cannot carry megabytes. Input past the size limit is counted, never held.
import fs from 'node:fs';
import path from 'node:path';
import type { TooLarge } from '../core/argument-size';
import { UsageError } from './io';

/** The arguments as text, or how big they were when they passed the limit (then nothing of them is kept). */
export type ArgumentInput = { args: string } | { tooLarge: TooLarge };

/** Reads the ARGS operand: JSON text as is, `-` for standard input, `@FILE` for a file relative to `cwd`. */
export async function readArgumentInput(
  operand: string,
  options: { stdin: NodeJS.ReadableStream; cwd: string; limit: number },
): Promise<ArgumentInput> {
  if (operand === '-') return readStream(options.stdin, options.limit, 'standard input');
  if (operand.startsWith('@') && operand.length > 1) {
    const file = path.resolve(options.cwd, operand.slice(1));
    let stat: fs.Stats;
    try {
      stat = await fs.promises.stat(file);
    } catch (error) {
      throw new UsageError(
        `cannot read the arguments file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      );
    }
    if (!stat.isFile()) throw new UsageError(`the arguments file ${file} is not a file`);
    // A regular file's size is known up front: an oversized one is refused without reading it.
    if (stat.size > options.limit) return { tooLarge: { bytes: stat.size, limit: options.limit } };
    return readStream(fs.createReadStream(file), options.limit, file);
  }
  const bytes = Buffer.byteLength(operand);
  return bytes > options.limit ? { tooLarge: { bytes, limit: options.limit } } : { args: operand };
}

// Keeps at most `limit` bytes; past it, goes on counting (so the message says how big) and drops the rest.
async function readStream(
  stream: NodeJS.ReadableStream,
  limit: number,
  what: string,
): Promise<ArgumentInput> {
  const parts: Buffer[] = [];
  let bytes = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer | string>) {
      const piece = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      bytes += piece.length;
      if (bytes <= limit) parts.push(piece);
      else parts.length = 0;
    }
  } catch (error) {
    throw new UsageError(`cannot read the arguments from ${what}: ${(error as Error).message}`);
  }
  if (bytes > limit) return { tooLarge: { bytes, limit } };
  const text = Buffer.concat(parts).toString('utf8');
  return { args: text.trim() === '' ? '{}' : text };
}
