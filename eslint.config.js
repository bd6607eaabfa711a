// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { layersRule } from './lint/layers.mjs';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '**/*.js', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
    },
  },
  { files: ['src/cli/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts'], rules: { 'no-console': 'off' } },
  { files: ['src/**/*.ts'], plugins: { converge: { rules: { layers: layersRule } } }, rules: { 'converge/layers': 'error' } },
);
