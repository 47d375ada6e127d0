// The layering of the whole repository, written once: `npm run lint` (and so CI) checks every import
// of api/, web/, infra/ and scripts/ against these rules with dependency-cruiser. docs/design.md
// ("The parts") draws the shape; test/scripts/layer-rules.test.ts proves that the rules fire.
// ESLint keeps the code style, this file the direction of every import.

// The folders of api/ from the bottom up, and which other parts of api/ each may import. `root` is
// the small shared files at api/'s top (errors.ts, log.ts). Every import of another folder must be
// listed here, so a folder imports downward only: the one-line reason on each row is why it may not
// reach higher. `typeOnly` folders may be imported with `import type` and nothing else.
export const API_LAYERS = {
  i18n: { may: [], why: 'the messages are the bottom: every folder may show a person a message, so they import nothing of the API' },
  types: { may: [], why: 'declaration files for untyped packages: they describe packages, not our code' },
  root: { may: ['i18n', 'types'], why: 'the shared pieces (errors, log) sit under every folder, so they import no folder but the messages' },
  net: { may: ['root', 'i18n', 'types'], why: 'the guarded HTTP client and the link prober know nothing of Brightspace, courses or findings' },
  workers: { may: ['root', 'i18n', 'types'], why: 'the supervised worker runs whatever it is given; it knows no document, page or course' },
  extract: { may: ['root', 'i18n', 'types', 'net', 'workers'], why: 'bytes -> facts, no judgement: parsers know no Brightspace, runtime or check' },
  brightspace: {
    may: ['root', 'i18n', 'types', 'net', 'workers', 'extract'],
    why: 'the Brightspace client reads the site; what a course should look like (checks) is not its business',
  },
  a11y: {
    may: ['root', 'i18n', 'types', 'net', 'workers', 'extract'],
    why: 'the accessibility runtimes render and run axe; they judge nothing and know no Brightspace',
  },
  sources: {
    may: ['root', 'i18n', 'types', 'net', 'workers', 'extract', 'brightspace'],
    why: 'sources read course items and never make a finding: no checks, engine, report or jobs',
  },
  checks: {
    may: ['root', 'i18n', 'types', 'extract', 'brightspace', 'a11y'],
    typeOnly: ['net'],
    why: 'checks are pure judgements over items: no network (a probe result type only), no sources, engine, report, jobs or workers',
  },
  report: {
    may: ['root', 'i18n', 'types', 'extract', 'brightspace', 'checks', 'sources'],
    typeOnly: ['a11y'],
    why: 'the report is built from findings and items; it runs nothing, so it imports no engine, jobs or runtime',
  },
  engine: {
    may: ['root', 'i18n', 'types', 'net', 'workers', 'extract', 'brightspace', 'a11y', 'sources', 'checks', 'report'],
    why: 'the engine orchestrates one run; the job around it and the edges that start it are above it',
  },
  protocol: {
    may: ['root', 'i18n', 'types', 'a11y', 'checks', 'report', 'engine'],
    why: "a client's checklist scored on a finished report: pure judgements over the report, so no jobs, stores or edges",
  },
  jobs: {
    may: ['root', 'i18n', 'types', 'net', 'workers', 'extract', 'brightspace', 'a11y', 'sources', 'checks', 'report', 'engine', 'protocol'],
    why: 'the run use case and its ports; the HTTP edge and the runtimes implement or call them, never the reverse',
  },
  http: {
    may: ['root', 'i18n', 'types', 'net', 'workers', 'extract', 'brightspace', 'a11y', 'sources', 'checks', 'report', 'engine', 'protocol', 'jobs'],
    why: 'the edge: routes call the use cases; only the two runtimes are above it',
  },
  local: {
    may: ['root', 'i18n', 'types', 'net', 'workers', 'extract', 'brightspace', 'a11y', 'sources', 'checks', 'report', 'engine', 'protocol', 'jobs', 'http'],
    why: 'the local runtime; it and the AWS runtime are two implementations of the same ports and never share code',
  },
  aws: {
    may: ['root', 'i18n', 'types', 'net', 'workers', 'extract', 'brightspace', 'a11y', 'sources', 'checks', 'report', 'engine', 'protocol', 'jobs', 'http'],
    why: 'the AWS runtime; it and the local runtime are two implementations of the same ports and never share code',
  },
};

const layerPath = (layer) => (layer === 'root' ? '^api/[^/]+$' : `^api/${layer}/`);
const layerName = (layer) => (layer === 'root' ? 'api/*.ts' : `api/${layer}/`);

// No folder cycle can pass: a folder may only import folders it lists, so a cycle between folders
// would need a cycle in the table itself, and loading this file refuses one (type-only imports
// count: a cycle of types is still two folders that each need the other). dependency-cruiser's own
// `no-circular` below sees cycles of modules, not of folders, which is why the table is checked too.
export function assertLayersAcyclic(layers) {
  const state = new Map();
  const visit = (layer, path) => {
    if (state.get(layer) === 'done') return;
    if (state.get(layer) === 'visiting') throw new Error(`API_LAYERS has a folder cycle: ${[...path, layer].join(' -> ')}`);
    if (!layers[layer]) throw new Error(`API_LAYERS: ${path.at(-1)} may import ${layer}, which has no row`);
    state.set(layer, 'visiting');
    for (const lower of [...layers[layer].may, ...(layers[layer].typeOnly ?? [])]) visit(lower, [...path, layer]);
    state.set(layer, 'done');
  };
  for (const layer of Object.keys(layers)) visit(layer, []);
}
assertLayersAcyclic(API_LAYERS);

const apiLayerRules = Object.entries(API_LAYERS).flatMap(([layer, { may, typeOnly = [], why }]) => [
  {
    name: `api-${layer}-imports-downward`,
    comment: `${layerName(layer)} may import only ${[...may.map(layerName), ...typeOnly.map((t) => `${layerName(t)} (types)`)].join(', ') || 'no other part of api/'}: ${why}.`,
    severity: 'error',
    from: { path: layerPath(layer) },
    to: { path: '^api/', pathNot: [layerPath(layer), ...may.map(layerPath), ...typeOnly.map(layerPath)] },
  },
  ...typeOnly.map((lower) => ({
    name: `api-${layer}-${lower}-types-only`,
    comment: `${layerName(layer)} may take types from ${layerName(lower)} but no code: ${why}.`,
    severity: 'error',
    from: { path: layerPath(layer) },
    to: { path: layerPath(lower), dependencyTypesNot: ['type-only'] },
  })),
]);

const knownApiFolders = Object.keys(API_LAYERS).filter((layer) => layer !== 'root');

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'api-folder-has-a-layer',
      comment:
        'Every folder of api/ has a row in API_LAYERS (and a line in docs/design.md): a new folder says where it sits before it imports anything.',
      severity: 'error',
      from: { path: '^api/[^/]+/', pathNot: knownApiFolders.map(layerPath) },
      to: { path: '^api/' },
    },
    ...apiLayerRules,
    {
      name: 'no-circular',
      comment:
        'Modules that need each other cannot be understood, tested or moved apart one at a time. Types count: they tie two modules as much, and are the usual first half of a cycle of code.',
      severity: 'error',
      from: { path: '^(api|web|infra|scripts)/' },
      to: { circular: true },
    },
    {
      name: 'api-stays-out-of-infra',
      comment: 'The runtime ships api/ without infra/: the deployment describes the code, the code does not read the deployment.',
      severity: 'error',
      from: { path: '^api/' },
      to: { path: '^infra/' },
    },
    {
      name: 'api-runtime-production-dependencies-only',
      comment:
        'The runner image and the Lambda bundles carry production dependencies only, so a devDependency imported at run time fails only once deployed. api/local/ runs where npm install brought every dependency.',
      severity: 'error',
      from: { path: '^api/', pathNot: '^api/local/' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'server-not-to-web',
      comment: 'Server code does not import the app: the app is a static bundle built apart, for the browser.',
      severity: 'error',
      from: { path: '^(api|infra|scripts)/' },
      to: { path: '^web/' },
    },
    {
      name: 'web-to-api-wire-contract-only',
      comment:
        "The app may take the wire contract (the shapes and schemas of the API's requests and answers) from api/http/, and nothing else of the server: the bundle runs in a browser.",
      severity: 'error',
      from: { path: '^web/' },
      to: { path: '^api/', pathNot: '^api/http/' },
    },
    {
      name: 'web-shared-not-to-features-or-app',
      comment: 'bulletproof-react: imports flow shared -> features -> app. Shared code (components, lib) imports no feature and not the app.',
      severity: 'error',
      from: { path: '^web/src/(components|lib)/' },
      to: { path: '^web/src/(features|app)/' },
    },
    {
      name: 'web-feature-not-to-other-feature',
      comment: 'A feature does not import another feature; move the shared piece up to web/src/components or web/src/lib.',
      severity: 'error',
      from: { path: '^web/src/features/([^/]+)/' },
      to: { path: '^web/src/features/', pathNot: '^web/src/features/$1/' },
    },
    {
      name: 'web-feature-not-to-app',
      comment: 'Features do not import the app layer: the app composes features, not the reverse.',
      severity: 'error',
      from: { path: '^web/src/features/' },
      to: { path: '^web/src/app/' },
    },
    {
      name: 'infra-bin-is-the-entry',
      comment: 'infra/bin wires the stacks and is what cdk runs; nothing imports it (constructs live in infra/lib).',
      severity: 'error',
      from: {},
      to: { path: '^infra/bin/' },
    },
    {
      name: 'infra-to-api-shared-constants-only',
      comment:
        'The deployment shares names with the code it deploys (settings, table indexes, the report CSP, the report key format) and imports nothing else of api/, so synthesizing never loads the engine.',
      severity: 'error',
      from: { path: '^infra/' },
      to: { path: '^api/', pathNot: ['^api/aws/', '^api/report/report-csp\\.ts$', '^api/http/report-capability\\.ts$'] },
    },
    {
      name: 'not-to-scripts',
      comment: 'scripts/ are entry points run from the command line; only other scripts and tests import them.',
      severity: 'error',
      from: { pathNot: '^(scripts|test)/' },
      to: { path: '^scripts/' },
    },
    {
      name: 'not-to-test',
      comment:
        'Nothing outside test/ imports test/: tests and their fixtures import the code, never the reverse (test/fixtures re-exports api/local/demo-course, not the other way). Benchmarks may run the test courses (test/fixtures), side by side with their peers.',
      severity: 'error',
      from: { pathNot: ['^test/', '^scripts/bench-[^/]+[.]ts$'] },
      to: { path: '^test/' },
    },
    {
      name: 'bench-only-to-fixtures',
      comment: 'A benchmark takes the test courses (test/fixtures), never a test itself.',
      severity: 'error',
      from: { path: '^scripts/bench-[^/]+[.]ts$' },
      to: { path: '^test/', pathNot: '^test/fixtures/' },
    },
    {
      name: 'not-to-unresolvable',
      comment:
        "An import that does not resolve is one these rules cannot see. 'cloudfront' is the key-value store module that exists only in CloudFront Functions' runtime.",
      severity: 'error',
      from: {},
      to: { couldNotResolve: true, pathNot: '^cloudfront$' },
    },
  ],
  options: {
    // The built app, when present.
    exclude: { path: '^web/dist/' },
    doNotFollow: { path: 'node_modules' },
    // `import type` is kept (and marked type-only) rather than erased, so a type can be allowed
    // where code is not (checks may take a probe's result type from net/, never the prober).
    tsPreCompilationDeps: true,
    // The app's `@/` alias.
    tsConfig: { fileName: 'web/tsconfig.json' },
    // Packages' `exports` maps (`css-tree/parser`, `csv-stringify/sync`), as Node resolves them.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
