// Lint rules for the whole repository. Type-aware rules are left to `npm run typecheck`, which
// keeps this fast enough to run on every change; which part may import which is checked by
// dependency-cruiser (.dependency-cruiser.js), also in `npm run lint`.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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
    files: ['api/**', 'scripts/**', 'infra/**', 'test/{api,infra,scripts,e2e,fixtures}/**', '*.config.{js,ts}'],
    languageOptions: { globals: { ...globals.node } },
  },
);
