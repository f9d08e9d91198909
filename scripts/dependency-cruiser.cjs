// The rooms of HomeAgent and which may import which (`npm run lint:layers`). This file is where the allowed directions
// are written: kernel and plugin-host stand on protocol, plugins on plugin-host and protocol; nothing imports upwards or
// sideways, and no import goes round in a circle, type-only imports included.
//
//   protocol/*.ts      the contract: plain data and types, no IO; imports nothing of ours but itself
//   protocol/runtime/  the shared runtime (wire, dispatch, data lock, Lua, files); imports the contract
//   kernel/            imports protocol
//   plugin-host/       imports protocol
//   plugins/<name>/    imports plugin-host, protocol and its own folder
//   plugins/webui/app/ the browser page: imports the contract, its own folder and its few browser packages
//
// docs/ARCHITECTURE.md §3 says the same in words. Tests and scripts are outside the rooms: they may reach into any of
// them, and are not cruised (`lint:layers` starts from the four rooms); no room imports them.

/** Paths of the rooms, as dependency-cruiser sees them (relative to the repository, forward slashes). */
const CONTRACT = '^protocol/[^/]+\\.ts$';
const RUNTIME = '^protocol/runtime/';
const KERNEL = '^kernel/';
const PLUGIN_HOST = '^plugin-host/';
const PLUGINS = '^plugins/';
const PAGE = '^plugins/webui/app/';

/**
 * The browser packages the page bundles, and the modules its asset build makes (scripts/build-webui.js). A package's
 * path is matched anywhere: where node_modules is a link, the cruiser names the folder it links to.
 */
const PAGE_PACKAGES = ['preact', 'preact/hooks', 'htm', 'marked', 'dompurify'];
const PAGE_VIRTUAL = ['homeagent:pages', 'homeagent:strings'];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'kernel-not-to-plugin-side',
      comment: 'The kernel never imports plugin-host or a plugin: what both need lives in protocol/ (runtime or contract).',
      severity: 'error',
      from: { path: KERNEL },
      to: { path: [PLUGIN_HOST, PLUGINS] },
    },
    {
      name: 'plugin-host-not-to-kernel-or-plugins',
      comment: 'plugin-host is the library every plugin process runs on; it stands on protocol/ alone.',
      severity: 'error',
      from: { path: PLUGIN_HOST },
      to: { path: [KERNEL, PLUGINS] },
    },
    {
      name: 'plugins-not-to-kernel',
      comment: 'A plugin talks to the kernel over the wire, never by importing it.',
      severity: 'error',
      from: { path: PLUGINS },
      to: { path: KERNEL },
    },
    {
      name: 'plugins-not-to-other-plugins',
      comment: 'A plugin imports no other plugin; what two plugins share belongs in plugin-host/ or protocol/.',
      severity: 'error',
      from: { path: '^plugins/([^/]+)/' },
      to: { path: PLUGINS, pathNot: '^plugins/$1/' },
    },
    {
      name: 'contract-not-to-runtime-or-up',
      comment: 'The contract (protocol/*.ts) is plain data and types: it imports neither the shared runtime nor any room above.',
      severity: 'error',
      from: { path: CONTRACT },
      to: { path: [RUNTIME, KERNEL, PLUGIN_HOST, PLUGINS] },
    },
    {
      name: 'contract-does-no-io',
      comment: "The contract does no IO: it imports none of Node's own modules (fs, net, child_process…); that is the runtime's work.",
      severity: 'error',
      from: { path: CONTRACT },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'runtime-not-up',
      comment: 'The shared runtime sits below kernel, plugin-host and plugins, and imports none of them.',
      severity: 'error',
      from: { path: RUNTIME },
      to: { path: [KERNEL, PLUGIN_HOST, PLUGINS] },
    },
    {
      name: 'page-only-to-contract',
      comment: 'The web page runs in the browser: it imports the contract, its own folder and the packages it bundles.',
      severity: 'error',
      from: { path: PAGE },
      to: { pathNot: [PAGE, CONTRACT, ...PAGE_PACKAGES.map((name) => `(^|/)node_modules/${name}/`), ...PAGE_VIRTUAL.map((name) => `^${name}$`)] },
    },
    {
      name: 'rooms-not-to-tests-or-scripts',
      comment: 'Tests and scripts may reach into every room, never the other way round.',
      severity: 'error',
      from: { pathNot: '^(test|scripts)/' },
      to: { path: '^(test|scripts)/' },
    },
    {
      name: 'no-circular',
      comment: 'No import goes round in a circle, type-only imports included: a circle makes two files one room.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import the cruiser cannot resolve would slip past every rule above, so it fails the lint itself.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true, pathNot: PAGE_VIRTUAL.map((name) => `^${name}$`) },
    },
  ],
  options: {
    // Type-only imports count: a circle or an up-arrow through `import type` is a drift all the same.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|vendor)/' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
  },
};
