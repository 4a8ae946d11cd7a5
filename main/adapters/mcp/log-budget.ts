// How much of a server's stray output reaches the app log (docs/security.md, "A hostile MCP server"): its stderr, the
// stdout lines that are not JSON-RPC, and the messages the client cannot place (progress for an unknown token, an
// answer to no request), which the SDK reports whole. Each was a log line written synchronously on the main thread, so a server
// writing as fast as the pipe takes it stalled the app and filled the disk. A burst passes whole; past it, a steady
// rate; what is left out is counted and said in one note.
import { performance } from 'node:perf_hooks';
import { clipNoted } from '../../core/clip-chars';

/** Bytes of stray output a server may log at once. */
export const LOG_BURST_BYTES = 64 * 1024;
/** Bytes of stray output a server may log per second, past the burst. */
export const LOG_BYTES_PER_SECOND = 4 * 1024;

/** A token bucket of log bytes for one server process. */
export class LogBudget {
  private tokens: number;
  private at: number;
  private lines = 0;
  private bytes = 0;

  constructor(
    private readonly burst: number = LOG_BURST_BYTES,
    private readonly perSecond: number = LOG_BYTES_PER_SECOND,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = burst;
    this.at = now();
  }

  /** Whether a line of `size` bytes may be logged now; one that may not is counted as left out. */
  take(size: number): boolean {
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.at) / 1000) * this.perSecond);
    this.at = now;
    if (this.tokens >= size) {
      this.tokens -= size;
      return true;
    }
    this.lines += 1;
    this.bytes += size;
    return false;
  }

  /** The note for what was left out since the last one (and starts counting again), or null when nothing was. */
  note(unit = 'line'): string | null {
    if (this.lines === 0) return null;
    const note = `${this.lines.toLocaleString('en-US')} ${unit}${this.lines === 1 ? '' : 's'} of the server's output (${this.bytes.toLocaleString('en-US')} bytes) not logged: more than ${this.perSecond / 1024} KiB a second`;
    this.lines = 0;
    this.bytes = 0;
    return note;
  }
}

/** The longest transport error logged (characters): the SDK quotes a whole message, up to 10 MiB, in some. */
export const LOGGED_ERROR_CHARS = 500;

/** `text` cut to LOGGED_ERROR_CHARS, the cut said in the words the redactor scrubs a split secret around. */
export function clipLogged(text: string): string {
  return clipNoted(text, LOGGED_ERROR_CHARS);
}
