// What open_file never hands the OS opener: a file or bundle the OS would start as a program rather than show
// (docs/security.md, "What the person sees"). open_file is for looking at things; running them is run_command's.
import path from 'node:path';

// Extensions the opener of some OS starts rather than shows: macOS apps, installers, Terminal and Automator files;
// Linux launchers and self-running images; Windows executables, scripts, shortcuts and handlers. Together on every
// platform: a repository written for one is read on another, and the names cost nothing to refuse.
const LAUNCHERS = new Set([
  // macOS
  'app',
  'command',
  'tool',
  'terminal',
  'workflow',
  'action',
  'scpt',
  'scptd',
  'applescript',
  'pkg',
  'mpkg',
  'webloc',
  'inetloc',
  'fileloc',
  'prefpane',
  'saver',
  'kext',
  'osax',
  'definition',
  // Linux
  'desktop',
  'appimage',
  'run',
  'flatpakref',
  'flatpakrepo',
  // Windows
  'exe',
  'com',
  'bat',
  'cmd',
  'scr',
  'pif',
  'msi',
  'msp',
  'msc',
  'cpl',
  'lnk',
  'url',
  'scf',
  'reg',
  'inf',
  'hta',
  'application',
  'appref-ms',
  'appx',
  'appxbundle',
  'msix',
  'msixbundle',
  'settingcontent-ms',
  'library-ms',
  'search-ms',
  'searchconnector-ms',
  'jnlp',
  'gadget',
  'ps1',
  'psm1',
  'psc1',
  'vbs',
  'vbe',
  'js',
  'jse',
  'wsf',
  'wsh',
  'ws',
  'sct',
  'chm',
  'diagcab',
  'xbap',
  // Java anywhere
  'jar',
]);

/**
 * Why opening `file` (as written) whose real location is `real` would start a program, or null: a launcher's
 * extension on either name or on a folder on the way (`Viewer.app/Contents/MacOS/Viewer`), or, on macOS, where
 * `open` runs an executable file in Terminal, an executable file.
 */
export function launcherReason(
  file: string,
  real: string,
  executable: boolean,
  platform: NodeJS.Platform = process.platform,
): string | null {
  for (const name of new Set([...parts(file), ...parts(real)])) {
    const extension = /\.([^.]+)$/
      .exec(name)?.[1]
      ?.toLowerCase()
      .replace(/[\s.]+$/, '');
    if (extension !== undefined && LAUNCHERS.has(extension))
      return `${name} is a .${extension} file, which the OS starts as a program rather than shows`;
  }
  if (platform === 'darwin' && executable)
    return `${path.basename(real)} is an executable, which macOS runs in Terminal`;
  return null;
}

function parts(file: string): string[] {
  // Trailing dots and blanks are dropped by Windows (`setup.bat.` is setup.bat), so they are here too.
  return file
    .split(/[\\/]+/)
    .filter((name) => name !== '')
    .map((name) => name.replace(/[\s.]+$/, ''));
}
