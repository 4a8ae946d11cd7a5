/* global module */
// electron-builder configuration: Linux (AppImage, deb), macOS (dmg), Windows (nsis).
// Packaging needs a machine with internet: electron-builder downloads the Electron binary for each target, and
// the native modules (better-sqlite3, keytar) are rebuilt against Electron's headers (or their Electron prebuilds
// fetched). See build/README.md.

/** Release builds flip Electron's fuses; AGENVOY_UNHARDENED=1 leaves them as shipped (debugging a package). */
const hardened = process.env.AGENVOY_UNHARDENED !== '1';

/** @type {import('electron-builder').Configuration} */
module.exports = {
  appId: 'dev.agenvoy.desktop',
  productName: 'Agenvoy',
  copyright: 'Agenvoy contributors',
  directories: { output: 'dist/packages', buildResources: 'build/resources' },
  // The bundles from `npm run build` (dist/electron, dist/renderer); production dependencies come from node_modules.
  files: ['package.json', 'dist/electron/**', 'dist/renderer/**', '!**/*.map'],
  asar: true,
  // Native modules cannot load from inside the archive.
  asarUnpack: ['**/*.node'],
  // Rebuild better-sqlite3 and keytar for Electron's ABI at packaging (they were built for Node by npm ci).
  npmRebuild: true,
  nodeGypRebuild: false,
  buildDependenciesFromSource: false,
  electronFuses: hardened
    ? {
        // Kept ON on purpose: JS script tools run with the app's own binary as Node (ELECTRON_RUN_AS_NODE=1,
        // main/adapters/script/script-handler.ts). Turning it off needs script tools on utilityProcess or a system node.
        runAsNode: true,
        enableCookieEncryption: true,
        enableNodeOptionsEnvironmentVariable: false,
        enableNodeCliInspectArguments: false,
        enableEmbeddedAsarIntegrityValidation: true,
        onlyLoadAppFromAsar: true,
        loadBrowserProcessSpecificV8Snapshot: false,
        // The pages load from app://, never file://.
        grantFileProtocolExtraPrivileges: false,
      }
    : null,
  linux: {
    target: ['AppImage', 'deb'],
    category: 'Development',
    maintainer: 'Agenvoy contributors <agenvoy@users.noreply.github.com>',
  },
  // keytar talks to the Secret Service through libsecret.
  deb: { depends: ['libsecret-1-0', 'libnss3', 'libgtk-3-0'] },
  mac: {
    target: ['dmg'],
    category: 'public.app-category.developer-tools',
    hardenedRuntime: true,
  },
  dmg: { sign: false },
  win: { target: ['nsis'] },
  nsis: { oneClick: false, perMachine: false, allowToChangeInstallationDirectory: true },
};
