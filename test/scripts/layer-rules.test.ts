// The layering rules (.dependency-cruiser.js, run by `npm run lint`) fire on planted imports that
// break them, let lawful ones pass, and hold on the real tree.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cruise } from 'dependency-cruiser';
import type { ICruiseOptions, ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import { afterEach, describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const configFile = join(repo, '.dependency-cruiser.js');
// What `npm run lint` cruises (its script is checked below).
const LINT_ROOTS = ['api', 'web', 'infra', 'scripts'];

interface Layer {
  may: string[];
  typeOnly?: string[];
}
// Imported by address: the config is plain JavaScript for dependency-cruiser, with no types of its own.
const { API_LAYERS, assertLayersAcyclic } = (await import(pathToFileURL(configFile).href)) as {
  API_LAYERS: Record<string, Layer>;
  assertLayersAcyclic: (layers: Record<string, Layer>) => void;
};

// Imports that break the rules on today's tree, each to disappear as api/ (and the few files
// named here) take their new shape. The list may only shrink: when a line's import is gone this
// test fails until the line is removed, and the goal is an empty list. Never add to it.
const KNOWN_VIOLATIONS_TO_REMOVE: string[] = [];

const options = await extractDepcruiseOptions(configFile);

/** Each violation as `rule: from -> to`, sorted. */
async function violations(roots: string[], cruiseOptions: ICruiseOptions): Promise<string[]> {
  const { output } = await cruise(roots, cruiseOptions);
  const result = output as ICruiseResult;
  return result.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort();
}

let planted: string[] = [];
afterEach(() => {
  for (const dir of planted) rmSync(dir, { recursive: true, force: true });
  planted = [];
});

/** Cruises a small tree of the given files with the real rules, as `npm run lint` would. */
async function violationsOf(files: Record<string, string>): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'ctpo-layers-'));
  planted.push(dir);
  const all: Record<string, string> = {
    // The app's `@/` alias, as web/tsconfig.json has it.
    'web/tsconfig.json': JSON.stringify({ compilerOptions: { paths: { '@/*': ['./src/*'] } } }),
    'package.json': JSON.stringify({ name: 'planted', type: 'module', dependencies: { 'a-runtime-kit': '1.0.0' }, devDependencies: { 'a-dev-kit': '1.0.0' } }),
    'node_modules/a-runtime-kit/package.json': JSON.stringify({ name: 'a-runtime-kit', version: '1.0.0', main: 'index.js' }),
    'node_modules/a-runtime-kit/index.js': 'export const kit = 1;\n',
    'node_modules/a-dev-kit/package.json': JSON.stringify({ name: 'a-dev-kit', version: '1.0.0', main: 'index.js' }),
    'node_modules/a-dev-kit/index.js': 'export const kit = 1;\n',
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const roots = [...new Set(Object.keys(files).map((path) => path.split('/')[0]!))];
  return violations(roots, { ...options, baseDir: dir, tsConfig: { fileName: join(dir, 'web/tsconfig.json') } });
}

// A lawful tree: every folder imports the one below it, a check takes a probe's type from net/.
const LAWFUL: Record<string, string> = {
  'api/i18n/messages.ts': 'export const message = (id: string): string => id;\n',
  'api/errors.ts': "import { message } from './i18n/messages.ts';\nexport const fail = (): string => message('x');\n",
  'api/net/probe.ts': "import { fail } from '../errors.ts';\nexport interface Probe { ok: boolean }\nexport const probe = (): Probe => ({ ok: fail() === '' });\n",
  'api/extract/html.ts': "import { probe } from '../net/probe.ts';\nexport const links = (): boolean => probe().ok;\n",
  'api/brightspace/toc.ts': "import { links } from '../extract/html.ts';\nexport const toc = (): boolean => links();\n",
  'api/a11y/axe.ts': "import { links } from '../extract/html.ts';\nexport const axe = (): boolean => links();\n",
  'api/sources/items.ts': "import { toc } from '../brightspace/toc.ts';\nexport const items = (): boolean => toc();\n",
  'api/checks/links.ts':
    "import type { Probe } from '../net/probe.ts';\nimport { axe } from '../a11y/axe.ts';\nexport const judge = (p: Probe): boolean => p.ok && axe();\n",
  'api/report/build.ts': "import { judge } from '../checks/links.ts';\nimport { items } from '../sources/items.ts';\nexport const build = (): boolean => judge({ ok: items() });\n",
  'api/engine/run.ts': "import { build } from '../report/build.ts';\nimport { kit } from 'a-runtime-kit';\nexport const run = (): boolean => build() && kit === 1;\n",
  'api/jobs/job.ts': "import { run } from '../engine/run.ts';\nexport const job = (): boolean => run();\n",
  'api/http/routes.ts': "import { job } from '../jobs/job.ts';\nexport const route = (): boolean => job();\n",
  'api/local/server.ts': "import { route } from '../http/routes.ts';\nimport { kit } from 'a-dev-kit';\nexport const serve = (): boolean => route() && kit === 1;\n",
  'api/aws/lambda.ts': "import { route } from '../http/routes.ts';\nexport const handler = (): boolean => route();\n",
  'api/aws/settings.ts': "export const ENV = 'CTPO_ENV';\n",
  'infra/lib/qa-api.ts': "import { ENV } from '../../api/aws/settings.ts';\nexport const name = ENV;\n",
  'infra/bin/app.ts': "import { name } from '../lib/qa-api.ts';\nconsole.log(name);\n",
  'scripts/ctpo.ts': "import { run } from '../api/engine/run.ts';\nrun();\n",
  'test/fixtures/course.ts': "export { serve } from '../../api/local/server.ts';\nexport { run } from '../../scripts/ctpo.ts';\n",
  'web/src/lib/api-client.ts': 'export const call = (): number => 1;\n',
  'web/src/components/button.tsx': "import { call } from '@/lib/api-client';\nexport const Button = (): number => call();\n",
  'web/src/features/runs/list.tsx': "import { Button } from '@/components/button';\nexport const List = (): number => Button();\n",
  'web/src/features/history/page.tsx': "import { List as _L } from '../runs/list.tsx';\nexport const Page = (): number => 1;\n",
  'web/src/app/app.tsx': "import { List } from '@/features/runs/list';\nexport const App = (): number => List();\n",
};
// The lawful tree without the one feature-to-feature import it carries for the last test below.
const { 'web/src/features/history/page.tsx': _history, ...LAWFUL_TREE } = LAWFUL;

describe('the layering rules', () => {
  it('let a tree that imports only downward pass', async () => {
    expect(await violationsOf(LAWFUL_TREE)).toEqual([]);
  });

  it('refuse an upward import in api/: a check importing the engine, the engine importing the edge', async () => {
    expect(
      await violationsOf({
        ...LAWFUL_TREE,
        'api/checks/dates.ts': "import { run } from '../engine/run.ts';\nexport const dates = (): boolean => run();\n",
        'api/engine/edge.ts': "import { route } from '../http/routes.ts';\nexport const edge = (): boolean => route();\n",
      }),
    ).toEqual([
      'api-checks-imports-downward: api/checks/dates.ts -> api/engine/run.ts',
      'api-engine-imports-downward: api/engine/edge.ts -> api/http/routes.ts',
    ]);
  });

  it('refuse a source that judges, and a Brightspace reader that imports a check', async () => {
    expect(
      await violationsOf({
        ...LAWFUL_TREE,
        'api/sources/judging.ts': "import { judge } from '../checks/links.ts';\nexport const j = judge;\n",
        'api/brightspace/judging.ts': "import { judge } from '../checks/links.ts';\nexport const j = judge;\n",
      }),
    ).toEqual([
      'api-brightspace-imports-downward: api/brightspace/judging.ts -> api/checks/links.ts',
      'api-sources-imports-downward: api/sources/judging.ts -> api/checks/links.ts',
    ]);
  });

  it('refuse a folder cycle even when no module cycle closes it', async () => {
    // sources -> engine here, engine -> sources through other modules: each module is acyclic.
    expect(
      await violationsOf({
        ...LAWFUL_TREE,
        'api/engine/progress.ts': 'export interface Progress { done: number }\n',
        'api/engine/read.ts': "import { items } from '../sources/items.ts';\nexport const read = (): boolean => items();\n",
        'api/sources/progress-user.ts': "import type { Progress } from '../engine/progress.ts';\nexport const done = (p: Progress): number => p.done;\n",
      }),
    ).toEqual(['api-sources-imports-downward: api/sources/progress-user.ts -> api/engine/progress.ts']);
  });

  it('refuse a module cycle inside one folder, types included', async () => {
    expect(
      await violationsOf({
        ...LAWFUL_TREE,
        'api/extract/a.ts': "import type { B } from './b.ts';\nexport interface A { b?: B }\nexport const a = 1;\n",
        'api/extract/b.ts': "import { a } from './a.ts';\nexport interface B { a: number }\nexport const b = a;\n",
      }),
    ).toEqual(['no-circular: api/extract/a.ts -> api/extract/b.ts']);
  });

  it('let a check take a type from net/ but not the network itself', async () => {
    expect(
      await violationsOf({ ...LAWFUL_TREE, 'api/checks/fetching.ts': "import { probe } from '../net/probe.ts';\nexport const p = probe;\n" }),
    ).toEqual(['api-checks-net-types-only: api/checks/fetching.ts -> api/net/probe.ts']);
  });

  it('keep the domain off the edges, and the two runtimes apart', async () => {
    expect(
      await violationsOf({
        ...LAWFUL_TREE,
        'api/jobs/local-only.ts': "import { serve } from '../local/server.ts';\nexport const s = serve;\n",
        'api/report/aws-only.ts': "import { handler } from '../aws/lambda.ts';\nexport const h = handler;\n",
        'api/aws/borrowed.ts': "import { serve } from '../local/server.ts';\nexport const s = serve;\n",
      }),
    ).toEqual([
      'api-aws-imports-downward: api/aws/borrowed.ts -> api/local/server.ts',
      'api-jobs-imports-downward: api/jobs/local-only.ts -> api/local/server.ts',
      'api-report-imports-downward: api/report/aws-only.ts -> api/aws/lambda.ts',
    ]);
  });

  it('refuse a folder of api/ that has no layer', async () => {
    expect(
      await violationsOf({ ...LAWFUL_TREE, 'api/misc/helper.ts': "import { fail } from '../errors.ts';\nexport const h = fail;\n" }),
    ).toEqual(['api-folder-has-a-layer: api/misc/helper.ts -> api/errors.ts']);
  });

  it('keep devDependencies out of what is deployed, and refuse an import that does not resolve', async () => {
    expect(
      await violationsOf({
        ...LAWFUL_TREE,
        'api/engine/dev.ts': "import { kit } from 'a-dev-kit';\nexport const k = kit;\n",
        'api/engine/typo.ts': "import { run } from './rnu.ts';\nexport const r = run;\n",
      }),
    ).toEqual([
      'api-runtime-production-dependencies-only: api/engine/dev.ts -> node_modules/a-dev-kit/index.js',
      'not-to-unresolvable: api/engine/typo.ts -> ./rnu.ts',
    ]);
  });

  it('hold infra/, scripts/ and test/ to their direction', async () => {
    expect(
      await violationsOf({
        ...LAWFUL_TREE,
        'infra/lib/engine-at-synth.ts': "import { run } from '../../api/engine/run.ts';\nexport const r = run;\n",
        'infra/lib/bin-user.ts': "import '../bin/app.ts';\n",
        'api/local/fixture-user.ts': "import { serve } from '../../test/fixtures/course.ts';\nexport const s = serve;\n",
        'api/engine/script-user.ts': "import '../../scripts/ctpo.ts';\n",
        'scripts/bench-course.ts': "import { serve } from '../test/fixtures/course.ts';\nexport const s = serve;\n",
        'scripts/bench-test-user.ts': "import '../test/some.test.ts';\n",
        'test/some.test.ts': 'export const t = 1;\n',
        'scripts/tool.ts': "import { serve } from '../test/fixtures/course.ts';\nexport const s = serve;\n",
      }),
    ).toEqual([
      'bench-only-to-fixtures: scripts/bench-test-user.ts -> test/some.test.ts',
      'infra-bin-is-the-entry: infra/lib/bin-user.ts -> infra/bin/app.ts',
      'infra-to-api-shared-constants-only: infra/lib/engine-at-synth.ts -> api/engine/run.ts',
      'not-to-scripts: api/engine/script-user.ts -> scripts/ctpo.ts',
      'not-to-test: api/local/fixture-user.ts -> test/fixtures/course.ts',
      'not-to-test: scripts/tool.ts -> test/fixtures/course.ts',
    ]);
  });

  it("hold the app to bulletproof-react's one-way imports, and the server out of the app", async () => {
    expect(
      await violationsOf({
        ...LAWFUL,
        'web/src/lib/feature-user.ts': "import { List } from '@/features/runs/list';\nexport const l = List;\n",
        'web/src/features/runs/app-user.tsx': "import { App } from '@/app/app';\nexport const a = App;\n",
        'web/src/features/runs/server-user.ts': "import { run } from '../../../../api/engine/run.ts';\nexport const r = run;\n",
        'api/engine/web-user.ts': "import { call } from '../../web/src/lib/api-client.ts';\nexport const c = call;\n",
      }),
    ).toEqual([
      'server-not-to-web: api/engine/web-user.ts -> web/src/lib/api-client.ts',
      'web-feature-not-to-app: web/src/features/runs/app-user.tsx -> web/src/app/app.tsx',
      'web-feature-not-to-other-feature: web/src/features/history/page.tsx -> web/src/features/runs/list.tsx',
      'web-shared-not-to-features-or-app: web/src/lib/feature-user.ts -> web/src/features/runs/list.tsx',
      'web-to-api-wire-contract-only: web/src/features/runs/server-user.ts -> api/engine/run.ts',
    ]);
  });
});

describe('the table of api/ folders', () => {
  it('refuses a table with a cycle in it, so no folder cycle can be allowed', () => {
    expect(() =>
      assertLayersAcyclic({ root: { may: [] }, net: { may: ['root'], typeOnly: ['checks'] }, checks: { may: ['net'] } }),
    ).toThrow('API_LAYERS has a folder cycle: net -> checks -> net');
    expect(() => assertLayersAcyclic(API_LAYERS)).not.toThrow();
  });

  it('has a row for every folder of api/', () => {
    const folders = readdirSync(join(repo, 'api'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.filter((folder) => !(folder in API_LAYERS))).toEqual([]);
  });
});

describe('the real tree', () => {
  it('is what `npm run lint` cruises', () => {
    const { scripts } = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(scripts.lint).toContain(`depcruise ${LINT_ROOTS.join(' ')} `);
  });

  it('breaks no rule but the known violations, and each of those is still there', async () => {
    const found = await violations(LINT_ROOTS, { ...options, baseDir: repo });
    expect(found).toEqual([...KNOWN_VIOLATIONS_TO_REMOVE].sort());
  });
});
