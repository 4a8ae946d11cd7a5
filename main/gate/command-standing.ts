// Why no standing approval (a rule or a chat grant) covers a command line (docs/security.md): what the shell would
// only work out when it runs, or a working folder that leads out of the workspace.
import type { CanonicalArgument } from './canonical-argument';

// Enough of the list to say why, short enough for a prompt line.
const SHOWN = 3;

/** The reason for the prompt, or null when rules and grants may apply. */
export function commandNoStanding(canonical: CanonicalArgument): string | null {
  if (canonical.kind !== 'command' || !canonical.shell) return null;
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
    return `its working folder leads outside the workspace (to ${canonical.place.cwd}), so no rule or chat grant covers it`;
  return null;
}
