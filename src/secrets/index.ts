export * from './types.js';
export * from './digest.js';
export * from './redactor.js';
export * from './secret-forms.js';
export * from './resolver.js';
