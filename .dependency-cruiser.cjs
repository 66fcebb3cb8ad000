/**
 * The layer directions of docs/decisions.md ("Layers and their directions"), checked by
 * test/architecture/layers.test.ts (npx depcruise src --config .dependency-cruiser.cjs).
 */
const ADAPTERS = 'api|temporal|workflows|activities|composition|launchers|cli|infra';

/**
 * Use-case feature folders from the bottom up: a folder imports only folders listed before it,
 * so no two features lean on each other in a circle. `shared/` holds what every feature needs
 * (context, keysets, org references, read models such as the in-use guard); `events/` is the
 * outbox and its fan-out. To cross the other way, go through a shared read model or an event.
 */
const FEATURE_ORDER = [
  'shared',
  'events',
  'organizations',
  'agents',
  'metrics',
  'inbound-alerts',
  'slos',
  'services',
  'alerting',
  'probe-tests',
  'incidents',
  'status-pages',
  'maintenances',
  'sla',
  'webhooks',
  'console',
  'config',
];
const featureRules = FEATURE_ORDER.slice(0, -1).map((folder, i) => ({
  name: 'feature-folders-form-no-circle',
  severity: 'error',
  comment: `usecases/${folder} may import only the feature folders before it in FEATURE_ORDER.`,
  from: { path: `^src/usecases/${folder}/` },
  to: { path: `^src/usecases/(${FEATURE_ORDER.slice(i + 1).join('|')})/` },
}));

module.exports = {
  forbidden: [
    ...featureRules,
    {
      name: 'use-cases-live-in-feature-folders',
      severity: 'error',
      comment: `Every use case sits in a feature folder (${FEATURE_ORDER.join(', ')}), none loose at the root.`,
      from: { path: '^src/usecases/[^/]+$' },
      to: {},
    },
    {
      name: 'feature-folders-are-listed',
      severity: 'error',
      comment: 'A new feature folder takes its place in FEATURE_ORDER, so its rank among the others is decided.',
      from: { path: '^src/usecases/', pathNot: `^src/usecases/(${FEATURE_ORDER.join('|')})/` },
      to: {},
    },
    { name: 'no-circular', severity: 'error', comment: 'Import cycles make every module in them depend on all the others.', from: {}, to: { circular: true } },
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment: 'src/domain is the pure core: no other layer, no Node built-ins (no I/O, no clock beyond what callers pass).',
      from: { path: '^src/domain/' },
      to: { pathNot: '^src/domain/', dependencyTypesNot: ['npm', 'npm-dev', 'npm-peer', 'npm-optional'] },
    },
    {
      name: 'workflows-are-deterministic',
      severity: 'error',
      comment: 'Workflows run in the sandbox: they import workflows, the pure domain, and activity types only.',
      from: { path: '^src/workflows/' },
      to: { pathNot: '^src/(workflows|domain)/', dependencyTypesNot: ['type-only', 'npm', 'npm-dev'] },
    },
    {
      name: 'routes-are-thin',
      severity: 'error',
      comment: 'Routes parse, call one use case and map the answer: no database, no Temporal, no infrastructure.',
      from: { path: '^src/api/routes/' },
      to: { path: '^src/(temporal|db|workflows|activities|composition|launchers|cli)/' },
    },
    {
      name: 'console-pages-are-thin',
      severity: 'error',
      comment: 'Console pages, like routes, read forms, call use cases and render: the same behaviour as the API, no SQL of their own.',
      from: { path: '^src/api/console/' },
      to: { path: '^src/(db|temporal|workflows|activities|composition|launchers|cli)/' },
    },
    {
      name: 'api-reaches-temporal-through-ports',
      severity: 'error',
      comment: 'The API gets its Temporal adapters from its composition root, typed by the use cases\' ports.',
      from: { path: '^src/api/' },
      to: { path: '^src/(temporal|workflows|activities|composition|launchers|cli)/' },
    },
    {
      name: 'use-cases-own-their-ports',
      severity: 'error',
      comment: 'Use cases declare the ports they need (usecases/<feature>/ports.ts); adapters implement them, never the other way round.',
      from: { path: '^src/usecases/' },
      to: { path: `^src/(${ADAPTERS})/` },
    },
    {
      name: 'activities-use-ports',
      severity: 'error',
      comment: 'Activities call use cases and adapters handed to them; importing src/temporal would close a cycle through the workflows.',
      from: { path: '^src/activities/' },
      to: { path: '^src/(api|temporal|composition|launchers|cli)/' },
    },
    {
      name: 'db-is-below-use-cases',
      severity: 'error',
      comment: 'src/db (entities, migrations, hot-path SQL) knows nothing of the layers above it.',
      from: { path: '^src/db/' },
      to: { path: `^src/(usecases|probes|infra|${ADAPTERS})/` },
    },
    {
      name: 'crypto-is-a-library',
      severity: 'error',
      comment: 'src/crypto signs, seals and verifies with the keys it is given: no I/O, so use cases call it directly; it knows only the domain.',
      from: { path: '^src/crypto/' },
      to: { path: '^src/', pathNot: '^src/(crypto|domain)/' },
    },
    {
      name: 'probes-are-shared-leaves',
      severity: 'error',
      comment: 'Probes run in the agent and the cloud prober alike: they depend on the domain only.',
      from: { path: '^src/probes/' },
      to: { path: `^src/(usecases|db|agent|${ADAPTERS})/` },
    },
    {
      name: 'agent-talks-http-only',
      severity: 'error',
      comment: 'The agent runs in customer networks: it reaches Vigil over HTTP, never its database, Temporal or use cases.',
      from: { path: '^src/agent/' },
      to: { path: `^src/(usecases|db|${ADAPTERS})/` },
    },
    {
      name: 'rendering-reads-the-domain',
      severity: 'error',
      comment: 'src/render turns domain models into HTML, CSS and email; it does no I/O and knows no layer above the domain.',
      from: { path: '^src/render/' },
      to: { pathNot: '^src/(render|domain)/', dependencyTypesNot: ['npm', 'npm-dev'] },
    },
    {
      name: 'launchers-are-for-composition',
      severity: 'error',
      comment: 'Development launchers (embedded PostgreSQL, the Temporal dev server) are started by the composition roots and entry points only.',
      from: { pathNot: '^src/(composition|cli|launchers)/' },
      to: { path: '^src/launchers/' },
    },
    {
      name: 'composition-is-the-top',
      severity: 'error',
      comment: 'Composition roots wire everything; only entry points use them.',
      from: { path: '^src/', pathNot: '^src/(cli|composition)/' },
      to: { path: '^src/composition/' },
    },
    {
      name: 'config-only-parses',
      severity: 'error',
      comment: 'src/config.ts parses the environment; building adapters from it is the composition roots\' job.',
      from: { path: '^src/config\\.ts$' },
      to: { path: '^src/', pathNot: '^src/(domain|probes/public-address)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
