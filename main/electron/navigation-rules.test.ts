// Navigation, new windows, external links and permissions, in plain Node.
import { describe, expect, it } from 'vitest';
import {
  externalLinkAllowed,
  navigationAllowed,
  permissionAllowed,
  windowOpenDecision,
} from './navigation-rules';

describe('navigation rules', () => {
  it('denies every navigation, to anywhere', () => {
    for (const url of [
      'https://example.com',
      'app://renderer/index.html',
      'file:///etc/passwd',
      'javascript:alert(1)',
    ]) {
      expect(navigationAllowed(url)).toBe(false);
    }
  });

  it('opens only http(s) links to other machines externally', () => {
    expect(externalLinkAllowed('https://github.com/owner/repo')).toBe(true);
    expect(externalLinkAllowed('http://example.com/page?q=1')).toBe(true);
    for (const url of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:text/html,<script>1</script>',
      'smb://share/x',
      'ms-settings:privacy',
      'app://renderer/index.html',
      'https://user:pass@example.com/',
      'http://localhost:8080/',
      'http://127.0.0.1:3000/?token=x',
      'http://[::1]/',
      'not a url',
    ]) {
      expect(externalLinkAllowed(url), url).toBe(false);
    }
  });

  it('denies every new window, opening allowed links in the browser instead', () => {
    expect(windowOpenDecision('https://example.com')).toEqual({ action: 'deny', openExternally: true });
    expect(windowOpenDecision('file:///x')).toEqual({ action: 'deny', openExternally: false });
  });

  it('denies every permission', () => {
    for (const permission of [
      'media',
      'notifications',
      'geolocation',
      'clipboard-read',
      'openExternal',
      'fullscreen',
    ]) {
      expect(permissionAllowed(permission)).toBe(false);
    }
  });
});
