import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  classifyLeftover,
  groupAlive,
  groupRecord,
  killGroup,
  killLeftoverGroups,
  ProcessGroups,
  runInGroup,
} from './process-group';
import { parseProcStat, readProcStat } from './process-group-proc';
import {
  groupVanished,
  processRunning,
  readTreePids,
  stubbornTreeSource,
  waitFor,
} from './process-group-testing';

let tmp: string;
const started: number[] = [];

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-pg-'));
});

afterEach(async () => {
  // Never leave a test's processes behind, whatever the test did.
  await Promise.all(started.splice(0).map((pgid) => killGroup(pgid, { graceMs: 0 })));
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Starts the stubborn tree detached, as a previous run would have. */
async function startTree(): Promise<{ pgid: number; leader: number; grandchild: number }> {
  const pidFile = path.join(tmp, `pids-${started.length}.json`);
  const child = spawn(process.execPath, ['-e', stubbornTreeSource(pidFile)], {
    detached: true,
    stdio: 'ignore',
  });
  child.unref();
  const pgid = child.pid as number;
  started.push(pgid);
  const pids = await readTreePids(pidFile);
  return { pgid, ...pids };
}

describe('killGroup', () => {
  it('kills a SIGTERM-ignoring leader and grandchild: SIGKILL after the 500 ms grace, nothing left', async () => {
    const tree = await startTree();
    expect(groupAlive(tree.pgid)).toBe(true);
    expect(readProcStat(tree.grandchild)?.pgrp).toBe(tree.pgid);

    const t0 = Date.now();
    expect(await killGroup(tree.pgid)).toBe(true);
    const took = Date.now() - t0;
    expect(took).toBeGreaterThanOrEqual(450);
    expect(took).toBeLessThan(2500);

    expect(groupAlive(tree.pgid)).toBe(false);
    expect(processRunning(tree.leader)).toBe(false);
    expect(processRunning(tree.grandchild)).toBe(false);
    // Exited members are reaped by init here, not by us; give a slow init its seconds.
    await waitFor(() => groupVanished(tree.pgid), 15_000, 'kill(-pgid, 0) to say ESRCH');
  });

  it('returns as soon as a cooperative group is gone, without waiting out the grace', async () => {
    const child = spawn('sh', ['-c', 'sleep 30 & sleep 30; wait'], { detached: true, stdio: 'ignore' });
    const pgid = child.pid as number;
    started.push(pgid);
    await waitFor(() => groupAlive(pgid), 5000, 'the group');
    const t0 = Date.now();
    expect(await killGroup(pgid, { graceMs: 5000 })).toBe(true);
    expect(Date.now() - t0).toBeLessThan(2000);
  });

  it('refuses ids that would signal every process or our own process', async () => {
    await expect(killGroup(0)).rejects.toThrow(RangeError);
    await expect(killGroup(1)).rejects.toThrow(RangeError);
    await expect(killGroup(-5)).rejects.toThrow(RangeError);
  });
});

describe('ProcessGroups', () => {
  it('tracks a running command from spawn to exit and reports both changes', async () => {
    const groups = new ProcessGroups();
    const changes: string[] = [];
    const off = groups.onChange((change) => changes.push(`${change.type}:${change.group.pgid}`));
    let pgid = 0;
    const run = runInGroup({
      command: 'sh',
      args: ['-c', 'sleep 0.3'],
      groups,
      onSpawn: (id) => (pgid = id),
    });
    expect(groups.size).toBe(1);
    const [record] = groups.list();
    expect(record?.pgid).toBe(pgid);
    expect(record?.command).toBe('sh -c sleep 0.3');
    expect(record?.startTime).toBe(readProcStat(pgid)?.startTime);
    await run;
    expect(groups.size).toBe(0);
    expect(changes).toEqual([`added:${pgid}`, `removed:${pgid}`]);
    off();
  });

  it('killAll kills every tree (grandchildren too) and settles their runs', async () => {
    const groups = new ProcessGroups();
    const pidFiles = [0, 1].map((i) => path.join(tmp, `all-${i}.json`));
    const runs = pidFiles.map((file) =>
      runInGroup({ command: process.execPath, args: ['-e', stubbornTreeSource(file)], groups }),
    );
    const settled = runs.map((run) =>
      run.then(
        () => 'resolved',
        (error: Error) => error.name,
      ),
    );
    const trees = await Promise.all(pidFiles.map((file) => readTreePids(file)));
    expect(groups.size).toBe(2);

    const t0 = Date.now();
    await groups.killAll();
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(await Promise.all(settled)).toEqual(['AbortError', 'AbortError']);
    expect(groups.size).toBe(0);
    for (const tree of trees) {
      expect(processRunning(tree.leader)).toBe(false);
      expect(processRunning(tree.grandchild)).toBe(false);
    }
  });
});

describe('killLeftoverGroups', () => {
  it('kills a group recorded by a previous run when its leader start time still matches', async () => {
    const tree = await startTree();
    const record = groupRecord(tree.pgid, 'node stubborn');
    expect(record.startTime).not.toBeNull();
    expect(classifyLeftover(record)).toBe('ours');
    expect(await killLeftoverGroups([record])).toEqual([{ pgid: tree.pgid, outcome: 'killed' }]);
    expect(processRunning(tree.grandchild)).toBe(false);
  });

  it('leaves the group alone when the pid was reused (other start time) or the record is from another boot', async () => {
    const tree = await startTree();
    const record = groupRecord(tree.pgid, 'node stubborn');
    const reused = { ...record, startTime: String(BigInt(record.startTime as string) - 1n) };
    const rebooted = { ...record, bootId: 'another-boot' };
    const unverifiable = { ...record, startTime: null };
    const results = await killLeftoverGroups([reused, rebooted, unverifiable]);
    expect(results.map((r) => r.outcome)).toEqual(['reused', 'rebooted', 'unverifiable']);
    expect(processRunning(tree.leader)).toBe(true);
    expect(processRunning(tree.grandchild)).toBe(true);
  });

  it('kills what is left of a group whose leader already died', async () => {
    const pidFile = path.join(tmp, 'orphan.json');
    const child = spawn(process.execPath, ['-e', stubbornTreeSource(pidFile, { exitAfterSpawn: true })], {
      detached: true,
      stdio: 'ignore',
    });
    const pgid = child.pid as number;
    started.push(pgid);
    const record = groupRecord(pgid, 'node orphan-maker');
    const pids = await readTreePids(pidFile);
    await waitFor(() => !processRunning(pids.leader), 5000, 'the leader to exit');
    expect(processRunning(pids.grandchild)).toBe(true);
    expect(await killLeftoverGroups([record])).toEqual([{ pgid, outcome: 'killed' }]);
    expect(processRunning(pids.grandchild)).toBe(false);
  });

  it('says gone for a finished group and never touches our own group', async () => {
    const run = await runInGroup({ command: 'true' });
    const record = {
      pgid: run.pgid,
      command: 'true',
      startedAt: 0,
      startTime: '1',
      bootId: groupRecord(1, '').bootId,
    };
    expect(classifyLeftover(record)).toBe('gone');
    const own = readProcStat(process.pid)?.pgrp as number;
    expect(classifyLeftover({ ...record, pgid: own })).toBe('reused');
  });
});

describe('parseProcStat', () => {
  it('reads the fields after a command name holding spaces and parentheses', () => {
    const text = '4445 (a) b (c)) S 4443 4440 2727 0 -1 4194304 102 0 0 0 0 0 0 0 20 0 1 0 39281 3133440 402';
    expect(parseProcStat(text)).toEqual({
      pid: 4445,
      state: 'S',
      ppid: 4443,
      pgrp: 4440,
      session: 2727,
      startTime: '39281',
    });
    expect(parseProcStat('garbage')).toBeNull();
  });
});
