/**
 * Layer and cycle rules, checked by `npm run lint` (depcruise). The layers, left to right; a file
 * imports only from its own layer and the layers to its left (type-only imports included):
 *
 *   lib       src/lib, src/config.ts, src/logger.ts
 *   infra     src/db, src/integrations, src/jobs/queue.ts, src/jobs/definitions.ts
 *   access    src/access, src/deps.ts (the dependencies and the caller services receive)
 *   http      src/http
 *   modules   src/modules/<domain> (not web, staff-web)
 *   delivery  src/modules/web, src/modules/staff-web, src/webhooks, src/demo
 *   app       src/app.ts, src/server.ts, src/jobs/runner.ts
 *   cli       src/cli
 *
 * Modules may use each other, but never in a cycle: module A importing module B while B (through
 * any path) imports A is an error. Inside a module, routes do not call repositories (services do),
 * wire schemas are not imported from routes files, and services do not import Fastify.
 */
const LAYERS = [
  ['lib', ['^src/lib/', '^src/config\\.ts$', '^src/logger\\.ts$']],
  ['infra', ['^src/db/', '^src/integrations/', '^src/jobs/queue\\.ts$', '^src/jobs/definitions\\.ts$']],
  ['access', ['^src/access/', '^src/deps\\.ts$']],
  ['http', ['^src/http/']],
  ['modules', ['^src/modules/(?!web/|staff-web/)']],
  ['delivery', ['^src/modules/web/', '^src/modules/staff-web/', '^src/webhooks/', '^src/demo/']],
  ['app', ['^src/app\\.ts$', '^src/server\\.ts$', '^src/jobs/runner\\.ts$']],
  ['cli', ['^src/cli/']],
];

const layerRules = LAYERS.slice(0, -1).map(([name, paths], i) => ({
  name: `layer-${name}`,
  comment: `${name} imports only from ${LAYERS.slice(0, i + 1)
    .map(([n]) => n)
    .join(', ')} (see .dependency-cruiser.cjs)`,
  severity: 'error',
  from: { path: paths },
  to: { path: LAYERS.slice(i + 1).flatMap(([, p]) => p) },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'no-module-cycle',
      comment: 'two modules must not depend on each other, directly or through other files',
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/' },
      to: { circular: true, pathNot: '^src/modules/$1/' },
    },
    {
      name: 'routes-call-services',
      comment: 'route handlers call a service; only services use repositories',
      severity: 'error',
      from: { path: '\\.routes\\.ts$' },
      to: { path: '\\.repo\\.ts$' },
    },
    {
      name: 'routes-export-only-routes',
      comment: 'wire schemas live in *.schemas.ts; only the app and a module\'s own routes import a routes file',
      severity: 'error',
      from: { path: '^src/', pathNot: ['\\.routes\\.ts$', '^src/app\\.ts$'] },
      to: { path: '\\.routes\\.ts$' },
    },
    {
      name: 'services-without-fastify',
      comment: 'services never import Fastify',
      severity: 'error',
      from: { path: '\\.service\\.ts$' },
      to: { path: '(^|/)node_modules/(fastify|@fastify)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
