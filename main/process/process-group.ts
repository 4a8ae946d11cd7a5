// Child processes that die on a schedule: the public face of the process-group modules.
// Spawn with runInGroup, track with ProcessGroups, recover after a crash with killLeftoverGroups.
export type { KillOptions } from './process-group-kill';
export {
  groupAlive,
  killGroup,
  killMarked,
  KILL_GRACE_MS,
  RUN_MARK_ENV,
  signalGroup,
  waitGone,
} from './process-group-kill';
export type { LeftoverOutcome, LeftoverResult } from './process-group-leftovers';
export { classifyLeftover, killLeftoverGroups } from './process-group-leftovers';
export { CappedOutput, capWithinLimit, MAX_OUTPUT_BYTES, truncationNote } from './process-group-output';
export type { ProcStat } from './process-group-proc';
export { groupMembers } from './process-group-proc';
export type { RunInGroupOptions, RunInGroupResult } from './process-group-run';
export { ProcessKilledError, runInGroup } from './process-group-run';
export type { GroupChange, GroupRecord } from './process-group-tracker';
export { groupRecord, ProcessGroups } from './process-group-tracker';
