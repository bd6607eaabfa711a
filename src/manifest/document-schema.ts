import { SCHEMA_FILES } from './schema.js';

/**
 * schemas/document.json, the schema editors use for any converge document: it dispatches on `kind`
 * to each kind's schema. Built from the registry so a new kind cannot be forgotten there;
 * `npm run schemas` writes it and a test keeps the file equal to this.
 */
export function documentSchema(): Record<string, unknown> {
  const kinds = [...SCHEMA_FILES.keys()];
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'converge manifest document',
    description: 'One converge manifest document; the kind selects the schema.',
    type: 'object',
    required: ['kind', 'name', 'spec'],
    properties: { kind: { enum: kinds, description: 'Document kind.' } },
    allOf: [...SCHEMA_FILES].map(([kind, file]) => ({ if: { properties: { kind: { const: kind } }, required: ['kind'] }, then: { $ref: file } })),
  };
}

export function documentSchemaText(): string {
  return `${JSON.stringify(documentSchema(), null, 2)}\n`;
}
