/**
 * A library loaded on first use instead of at start: exceljs (imports and exports), @aws-sdk/client-s3 (cloud
 * storage) and bpmn-engine (workflow) hold ≈ 60 MB of the server's heap once imported, and a server that never
 * exports or reaches a bucket should not pay for them at idle (issue 13: idle memory ≤ 250 MB). The first call
 * imports; every later call gets the same module (shared/loadOnce.ts).
 */
import { loadOnce } from '../../shared/loadOnce.js';

/** exceljs: sheet imports (crud/import-sheet.ts) and exports (modules/export). */
export const loadExcel = loadOnce(async () => (await import('exceljs')).default);
