// How many times this process has saved settings.json (saveSettings), so a reader that skips its look at the file
// for a burst of calls still sees a change the app made itself at once (docs/hosts.md, "Fast start"). A leaf module:
// the core's reader imports it without the parser.

let writes = 0;

/** Counts one save of settings.json by this process. */
export function noteSettingsWrite(): void {
  writes++;
}

/** The number of saves so far; a reader compares it with the count it last saw. */
export function settingsWriteCount(): number {
  return writes;
}
