// Why no standing approval (a rule or a chat grant) covers a command line (docs/security.md): a line too long to
// be what a person approved, what the shell would only work out when it runs, or a working folder that leads out
// of the workspace.
import { clip } from '../../tools/sdk/shell/words';
import type { CanonicalArgument } from './canonical-argument';

/** The longest command line (UTF-8 bytes) a rule or a chat grant may cover; a longer one always asks. */
export const MAX_STANDING_LINE_BYTES = 32 * 1024;

// Enough of the list to say why, short enough for a prompt line.
const SHOWN = 3;

/** The reason for the prompt, or null when rules and grants may apply. */
export function commandNoStanding(canonical: CanonicalArgument): string | null {
  if (canonical.kind !== 'command' || !canonical.shell) return null;
  if (canonical.bytes > MAX_STANDING_LINE_BYTES)
    return (
      `the command line is ${kib(canonical.bytes)} long, past the ${kib(MAX_STANDING_LINE_BYTES, true)} a rule ` +
      'or chat grant may cover, so no rule or chat grant covers it'
    );
  const { unresolved } = canonical.reading;
  if (unresolved.length > 0) {
    const shown = unresolved.slice(0, SHOWN).join(', ');
    const more = unresolved.length > SHOWN ? ` and ${unresolved.length - SHOWN} more` : '';
    return (
      `the gate cannot tell what this line will run: ${shown}${more} is only worked out by the shell, ` +
      'so no rule or chat grant covers it'
    );
  }
  if (canonical.place && !canonical.place.inside)
    return `its working folder leads outside the workspace (to ${clip(canonical.place.cwd, 200)}), so no rule or chat grant covers it`;
  return null;
}

// "64.0 KiB"; a limit reads "32 KiB".
function kib(bytes: number, whole = false): string {
  const value = bytes / 1024;
  return `${whole && Number.isInteger(value) ? value : value.toFixed(1)} KiB`;
}
