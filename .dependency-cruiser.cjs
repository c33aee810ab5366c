/**
 * The server's arrows run one way: modules → plugins/lib/db, never back, and no cycles. The web app's too:
 * app/ composes features, a feature never imports another, and components/ and lib/ import neither.
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
    {
      name: 'web-no-circular',
      severity: 'error',
      comment: 'No import cycle in the web app.',
      from: { path: '^apps/web/src/' },
      to: { circular: true },
    },
    {
      name: 'web-primitives-not-to-features',
      severity: 'error',
      comment:
        'components/ and lib/ hold primitives, layouts and helpers: they never import a feature or app/.',
      from: { path: '^apps/web/src/(components|lib)/' },
      to: { path: '^apps/web/src/(features|app)/' },
    },
    {
      name: 'web-features-not-to-other-features',
      severity: 'error',
      comment: 'A feature never imports another feature (app/ composes them) nor app/.',
      from: { path: '^apps/web/src/features/([^/]+)/' },
      to: { path: '^apps/web/src/(features|app)/', pathNot: '^apps/web/src/features/$1/' },
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
