/** Documents for the shared-helper tests: the real merchant screen and a small one built inline. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ScreenDocument } from '../../../src/shared/document.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export function merchant(): ScreenDocument {
  return JSON.parse(fs.readFileSync(path.join(root, 'schemas/business/merchant.json'), 'utf8')) as ScreenDocument;
}

/** A banner-like screen: a conditional that only *requires* a base field, a count, a virtual field. */
export function small(over: Partial<ScreenDocument> = {}): ScreenDocument {
  return {
    id: 'small',
    schemaVersion: 1,
    title: 'small.title',
    route: '/small/small',
    resource: { api: '/api/small', table: 'small', permissionPrefix: 'small' },
    schema: {
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: 'string', title: 'small.field.name', minLength: 2, maxLength: 20 },
        count: { type: 'integer', title: 'small.field.count', minimum: 1, maximum: 999 },
        amount: { type: 'number', title: 'small.field.amount', multipleOf: 0.01 },
        flag: { type: 'integer', title: 'small.field.flag', 'x-dict': 'banner_enable_flag' },
        period: { type: 'array', title: 'small.field.period', items: { type: 'string', format: 'date' }, 'x-custom': 1 },
        day: { type: 'string', format: 'date' },
        secret: { type: 'string', 'x-password': true },
        total: { type: 'number', readOnly: true, 'x-virtual': true },
      },
      allOf: [{ if: { properties: { flag: { const: 2 } }, required: ['flag'] }, then: { required: ['period'] } }],
    },
    list: {
      columns: [{ field: 'name', sortable: true }, { field: 'count', sortable: true }, { field: 'createTime', sortable: true }, { field: 'flag' }],
      search: [
        { field: 'name', op: 'contains' },
        { field: 'flag', op: 'equal' },
        { field: 'count', op: 'range' },
        { field: 'createTime', op: 'dateRange' },
        { field: 'day', op: 'prefix' },
      ],
      defaultSort: [{ field: 'createTime', dir: 'desc' }],
    },
    ...over,
  };
}
