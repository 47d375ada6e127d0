// Lint rules for the whole repository. Type-aware rules are left to `npm run typecheck`, which
// keeps this fast enough to run on every change.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// bulletproof-react's one-way imports: shared -> features -> app, and no feature imports another.
const features = (() => {
  try {
    return readdirSync(new URL('./web/src/features', import.meta.url), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
})();

const featureBoundaries = features.map((feature) => ({
  files: [`web/src/features/${feature}/**`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: features.filter((other) => other !== feature).map((other) => `@/features/${other}/**`),
            message: 'A feature does not import another feature; move the shared piece up to web/src/components or web/src/lib.',
          },
          { group: ['@/app/**'], message: 'Features do not import the app layer.' },
        ],
      },
    ],
  },
}));

export default tseslint.config(
  { ignores: ['**/node_modules/**', 'web/dist/**', 'cdk.out/**', '.ctpo/**', 'test-results/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2024, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'smart'],
      'no-console': 'off',
    },
  },
  {
    // Code that runs at CloudFront's edge, not as one of our modules: CloudFront calls each file's
    // `handler`, and `require` is how its runtimes load `crypto`.
    files: ['infra/edge/**'],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-require-imports': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { varsIgnorePattern: '^handler$', caughtErrors: 'none' }],
    },
  },
  { files: ['infra/edge/**/*.cjs'], languageOptions: { sourceType: 'commonjs' } },
  {
    files: ['web/**/*.{ts,tsx}', 'test/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['web/src/components/**', 'web/src/lib/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@/features/**', '@/app/**'], message: 'Shared code does not import features or the app layer.' }] },
      ],
    },
  },
  ...featureBoundaries,
  {
    files: ['api/**', 'scripts/**', 'infra/**', 'test/{api,infra,scripts,e2e,fixtures}/**', '*.config.{js,ts}'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['api/**', 'infra/**', 'scripts/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/web/src/**'], message: 'Server code does not import the app.' }] },
      ],
    },
  },
);
