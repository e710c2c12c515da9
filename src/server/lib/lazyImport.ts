/**
 * A library loaded on first use instead of at start: exceljs (imports and exports), @aws-sdk/client-s3 (cloud
 * storage) and bpmn-engine (workflow) hold ≈ 60 MB of the server's heap once imported, and a server that never
 * exports or reaches a bucket should not pay for them at idle (issue 13: idle memory ≤ 250 MB). The first call
 * imports; every later call gets the same module.
 */
export function lazyImport<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => {
    loaded ??= load().catch((e) => {
      loaded = undefined; // a failed import is tried again by the next call
      throw e;
    });
    return loaded;
  };
}

/** exceljs: sheet imports (crud/import-sheet.ts) and exports (modules/export). */
export const loadExcel = lazyImport(async () => (await import('exceljs')).default);
