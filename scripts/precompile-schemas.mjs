// Compiles every manifest schema once, at build time, into dist/manifest/schema-validators.cjs (ajv's
// standalone code): a CLI process then starts without compiling them (about 0.35 s of CPU). The module
// names the digest of the schemas it was made from; converge compiles them itself when they differ.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { PRECOMPILED_MODULE, SCHEMA_FILES, precompiledName, schemaAjv, schemaDigest } from '../dist/manifest/schema.js';

const standaloneCode = createRequire(import.meta.url)('ajv/dist/standalone').default;
const files = [...SCHEMA_FILES.values(), 'document.json'];
const ajv = schemaAjv({ code: { source: true } });
const code = standaloneCode(ajv, Object.fromEntries(files.map((f) => [precompiledName(f), f])));
const out = new URL(`../dist/manifest/${PRECOMPILED_MODULE}`, import.meta.url);
writeFileSync(out, `${code}\nexports.schemaDigest = ${JSON.stringify(schemaDigest())};\n`);
