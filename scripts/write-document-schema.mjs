// Writes schemas/document.json from the kind registry (run after adding a kind: `npm run schemas`).
import { writeFileSync } from 'node:fs';
import { documentSchemaText } from '../dist/manifest/document-schema.js';

writeFileSync(new URL('../schemas/document.json', import.meta.url), documentSchemaText());
console.log('wrote schemas/document.json');
