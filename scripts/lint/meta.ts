/**
 * The lint's meta-schema check is the server's: src/server/meta-schema.ts validates documents against
 * schemas/meta/screen.schema.json for both the document loader and the lint (one implementation).
 */
export { applyRegistry, compileMetaSchema, distance, metaValidator, registryDrift, simplify, suggest } from '../../src/server/meta-schema.js';
