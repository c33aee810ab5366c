/**
 * The server's arrows run one way: modules → plugins/lib/db, never back, and no cycles.
 * Run by `npm run lint`; see docs/decisions for the rule.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycle in the server or the shared package.',
      from: { path: '^(apps/server/src|packages/shared/src)/' },
      to: { circular: true },
    },
    {
      name: 'no-circular-modules',
      scope: 'folder',
      severity: 'error',
      comment: 'The server modules (modules/<name>/) do not import each other in a circle.',
      from: { path: '^apps/server/src/modules/[^/]+/?$' },
      to: { circular: true },
    },
    {
      name: 'lower-layers-not-to-modules',
      severity: 'error',
      comment: 'lib/, db/, plugins/ and the demo seed (seed/) are below the modules and never import them.',
      from: { path: '^apps/server/src/(lib|db|plugins|seed)/' },
      to: { path: '^apps/server/src/modules/' },
    },
    {
      name: 'shared-not-to-apps',
      severity: 'error',
      comment: 'packages/shared is used by the apps and never imports them.',
      from: { path: '^packages/shared/src/' },
      to: { path: '^apps/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'] },
  },
};
