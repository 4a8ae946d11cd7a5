// Which targets open_file refuses as programs (docs/security.md, "What the person sees").
import { describe, expect, it } from 'vitest';
import { launcherReason } from './open-launchers';

describe('launcherReason', () => {
  it('refuses launchers by any name on the way, in any case, with Windows trailing dots and blanks', () => {
    expect(launcherReason('/w/setup.BAT', '/w/setup.BAT', false, 'linux')).toMatch(/\.bat file/);
    expect(launcherReason('/w/setup.bat. ', '/w/setup.bat. ', false, 'win32')).toMatch(/\.bat file/);
    expect(launcherReason('/w/a.html', '/w/x/run.command', false, 'linux')).toMatch(/\.command file/);
    expect(launcherReason('/w/V.app/Contents/MacOS/V', '/w/V.app/Contents/MacOS/V', true, 'darwin')).toMatch(
      /\.app file/,
    );
  });

  it('refuses an executable only where the opener runs one (macOS)', () => {
    expect(launcherReason('/w/tool', '/w/tool', true, 'darwin')).toMatch(/Terminal/);
    expect(launcherReason('/w/tool', '/w/tool', true, 'linux')).toBeNull();
  });

  it('lets documents through', () => {
    for (const name of ['report.html', 'notes.md', 'a.pdf', 'photo.png', 'data.csv', 'v1.2', '.env.example'])
      expect(launcherReason(`/w/${name}`, `/w/${name}`, false, 'darwin'), name).toBeNull();
  });
});
