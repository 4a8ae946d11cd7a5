// Test helper: a private D-Bus session bus, so keychain tests never touch (or depend on) the user's session.
import type { ChildProcess } from 'node:child_process';
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A running private bus; `stop` kills every tracked child and restores the environment; the bus itself ends with this process. */
export interface PrivateBus {
  address: string;
  /** Temp dir holding HOME, XDG dirs and the bus socket. */
  dir: string;
  /** The environment for daemons on this bus (HOME and XDG dirs in `dir`). */
  env: NodeJS.ProcessEnv;
  /** Kills `child` on stop. */
  track(child: ChildProcess): void;
  stop(): Promise<void>;
}

/** Options for the bus: `serviceDir` holds D-Bus activation files; without it nothing is activated. */
export interface PrivateBusOptions {
  serviceDir?: string;
}

const busConfig = (
  socketDir: string,
  serviceDir?: string,
) => `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:dir=${socketDir}</listen>
  <auth>EXTERNAL</auth>
  ${serviceDir ? `<servicedir>${serviceDir}</servicedir>` : ''}
  <limit name="service_start_timeout">20000</limit>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`;

const BUS_HOLDER = `dbus-daemon --config-file="$1" --nofork --print-address=1 &
bus=$!
read -r _ || true
kill "$bus"`;

/**
 * Starts a dbus-daemon and points this process at it (DBUS_SESSION_BUS_ADDRESS set, DISPLAY unset). Call it
 * before the first keytar call of the test file: libsecret connects to the bus once per process.
 */
export async function startPrivateBus(options: PrivateBusOptions = {}): Promise<PrivateBus> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-bus-'));
  for (const sub of ['run', 'data', 'config', 'cache']) fs.mkdirSync(path.join(dir, sub), { mode: 0o700 });
  fs.writeFileSync(path.join(dir, 'bus.conf'), busConfig(path.join(dir, 'run'), options.serviceDir));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: dir,
    XDG_RUNTIME_DIR: path.join(dir, 'run'),
    XDG_DATA_HOME: path.join(dir, 'data'),
    XDG_CONFIG_HOME: path.join(dir, 'config'),
    XDG_CACHE_HOME: path.join(dir, 'cache'),
  };
  delete env.DISPLAY;
  const children: ChildProcess[] = [];
  const saved = { bus: process.env.DBUS_SESSION_BUS_ADDRESS, display: process.env.DISPLAY };
  const stop = async () => {
    for (const child of children.reverse()) await kill(child);
    restore('DBUS_SESSION_BUS_ADDRESS', saved.bus);
    restore('DISPLAY', saved.display);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  let holder: ChildProcess | null = null;
  try {
    // The bus must outlive this process's libsecret connection: GDBus raises SIGTERM in a process whose session
    // bus goes away (exit-on-close). So a shell holds it and ends it only when our end of its stdin closes,
    // which happens when this process exits, however it exits.
    const bus = (holder = spawn('sh', ['-c', BUS_HOLDER, 'bus-holder', path.join(dir, 'bus.conf')], {
      env,
      stdio: ['pipe', 'pipe', 'ignore'],
    }));
    bus.unref();
    (bus.stdin as unknown as { unref?: () => void }).unref?.();
    env.DBUS_SESSION_BUS_ADDRESS = await firstLine(bus, 5000);
    (bus.stdout as unknown as { unref?: () => void }).unref?.();
  } catch (error) {
    holder?.stdin?.end();
    await stop();
    throw error;
  }
  process.env.DBUS_SESSION_BUS_ADDRESS = env.DBUS_SESSION_BUS_ADDRESS;
  delete process.env.DISPLAY;
  return { address: env.DBUS_SESSION_BUS_ADDRESS, dir, env, track: (child) => children.push(child), stop };
}

/** Waits until `name` has an owner on the bus at `address`. */
export async function waitForName(address: string, name: string, limitMs: number): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    if (await nameHasOwner(address, name)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${name} did not appear on the private bus within ${limitMs} ms`);
}

function nameHasOwner(address: string, name: string): Promise<boolean> {
  const args = [`--bus=${address}`, '--print-reply', '--dest=org.freedesktop.DBus', '/org/freedesktop/DBus'];
  return new Promise((resolve) => {
    execFile(
      'dbus-send',
      [...args, 'org.freedesktop.DBus.NameHasOwner', `string:${name}`],
      { timeout: 2000 },
      (error, stdout) => resolve(!error && /boolean true/.test(stdout)),
    );
  });
}

function restore(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

function firstLine(child: ChildProcess, limitMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => reject(new Error('dbus-daemon printed no address')), limitMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      const newline = buffer.indexOf('\n');
      if (newline >= 0) {
        clearTimeout(timer);
        resolve(buffer.slice(0, newline).trim());
      }
    });
  });
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
  await exited;
  clearTimeout(timer);
}
