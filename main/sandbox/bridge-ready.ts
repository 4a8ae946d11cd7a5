// The sandbox runtime starts its two in-sandbox proxy listeners (HTTP on 3128, SOCKS on 1080) in the background and
// runs the command at once, so on a loaded machine a command whose first act is a request found nothing listening
// (curl exit 7, "Failed to connect to localhost port 3128"; known upstream as anthropics/claude-code#93862).
// docs/security.md: a networked command first waits, for at most BRIDGE_WAIT_S, until both listen.

/** The longest a networked command waits for its proxy listeners before it runs anyway. */
export const BRIDGE_WAIT_S = 3;

const STEP_S = 0.01;

/**
 * POSIX sh, run inside the sandbox before the command: reads the network namespace's own socket tables with shell
 * built-ins (no connection is made, nothing is forked while ready) until ports 3128 and 1080 are in state LISTEN (0A).
 * It defines and then removes one function and one variable, so the command's shell is left as it was.
 */
export const BRIDGE_READY_SH = [
  'agenvoy_bridge_up() {',
  '  agenvoy_bridge_n=0',
  '  for agenvoy_bridge_f in /proc/net/tcp /proc/net/tcp6; do',
  '    [ -r "$agenvoy_bridge_f" ] || continue',
  '    while read -r _ agenvoy_bridge_l _ agenvoy_bridge_s _; do',
  '      case "$agenvoy_bridge_l $agenvoy_bridge_s" in',
  '        *:0C38\\ 0A | *:0438\\ 0A) agenvoy_bridge_n=$((agenvoy_bridge_n + 1)) ;;',
  '      esac',
  '    done < "$agenvoy_bridge_f"',
  '  done',
  '  [ "$agenvoy_bridge_n" -ge 2 ]',
  '}',
  'agenvoy_bridge_i=0',
  `until agenvoy_bridge_up || [ "$agenvoy_bridge_i" -ge ${Math.round(BRIDGE_WAIT_S / STEP_S)} ]; do`,
  `  sleep ${STEP_S}; agenvoy_bridge_i=$((agenvoy_bridge_i + 1))`,
  'done',
  'unset -f agenvoy_bridge_up',
  'unset agenvoy_bridge_i agenvoy_bridge_n agenvoy_bridge_f agenvoy_bridge_l agenvoy_bridge_s',
].join('\n');
