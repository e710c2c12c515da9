/**
 * npm run lint:schemas [-- FILE|DIR …]
 *
 * Checks screen documents (no argument: every document under schemas/, except schemas/meta and schemas/data):
 * first the meta-schema, then cross-references (dictionaries, permission codes, i18n keys in both locales, field
 * names, search/sort fitness, conditions, uploads, endpoints the server serves, schemaVersion); and the data
 * files (schemas/data: dictionaries, menu tree) and the meta-schema's agreement with the registry.
 * Prints `file: /json/pointer: message` per problem and exits 1 on any; else a one-line summary.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadContext } from './lint/context.js';
import { formatProblem, lintPaths } from './lint/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function main(argv: string[]): Promise<number> {
  const targets = argv.filter((a) => a !== '--');
  const wantsEndpoints = !targets.includes('--no-endpoints');
  const paths = targets.filter((a) => !a.startsWith('--'));
  if (targets.includes('--help') || targets.includes('-h')) {
    console.log('usage: npm run lint:schemas [-- [--no-endpoints] FILE|DIR …]   (default: schemas/)');
    return 0;
  }
  const loaded = await loadContext(root, { endpoints: wantsEndpoints });
  try {
    const result = lintPaths(paths.length ? paths : [path.join(root, 'schemas')], loaded.ctx, { root });
    const problems = [...loaded.problems, ...result.problems];
    for (const p of problems) console.error(formatProblem(p));
    if (!result.files.length && !problems.length) {
      console.error('schema lint: no documents found');
      return 1;
    }
    if (problems.length) {
      const bad = new Set(result.problems.map((p) => p.file)).size;
      console.error(`schema lint: ${problems.length} problem(s) in ${bad} of ${result.files.length} document(s)`);
      return 1;
    }
    const checks = ['meta-schema', 'dictionaries', 'permissions', 'i18n (zh, en)', 'fields', 'conditions', 'uploads'];
    if (loaded.ctx.hasRoute) checks.push('endpoints');
    const data = loaded.ctx.dataFiles?.length ? ` and ${loaded.ctx.dataFiles.length} data file(s)` : '';
    console.log(`schema lint: ${result.files.length} document(s)${data} OK (${checks.join(', ')})`);
    return 0;
  } finally {
    await loaded.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    console.error(e);
    process.exitCode = 2;
  },
);
