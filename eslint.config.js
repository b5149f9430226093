// @ts-check
import tseslint from 'typescript-eslint';

/**
 * The typed rules that catch real bugs, not style (Prettier keeps the style):
 * - no-floating-promises: a promise nobody awaits loses its error and outlives its step or test;
 * - no-misused-promises: a promise where a boolean or a void callback is expected (an `if` on
 *   an async call, an async listener whose rejection nobody sees);
 * - await-thenable: awaiting what is not a promise (usually a call that was meant to return one).
 * Not on yet: no-unnecessary-condition. Over this tree it reports conditions the types say are
 * always the same, and most of them guard values that are typed but arrive unchecked at run time
 * (options from a user's JavaScript, device data before its schema, caught errors): turning it on
 * means deciding those one file at a time, not deleting the guards.
 * Type information comes from tsconfig.json (the project service), so the rules see what tsc sees.
 */
export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'docs/api/**',
      'test-results/**',
      'device-runtime/appium-driver/**',
      'ci/**',
      '**/*.js',
      '**/*.cjs',
      '**/*.mjs',
    ],
  },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
);
