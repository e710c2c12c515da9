// @vitest-environment happy-dom
/**
 * Tree and master-detail models, the tree-select value conversions (x-joined "1,2,3"), lookup / date-range
 * cells, and the runtime registries against the shared registry's names.
 */
import { describe, expect, it } from 'vitest';
import type { MasterDetailView, ScreenDocument } from '../../../src/shared/document.js';
import { ACTION_DIALOG_NAMES, CELL_NAMES, VIEW_NAMES, widgetNames } from '../../../src/shared/registry.js';
import {
  addChildInitial,
  childRows,
  columnsModel,
  detailPane,
  formatCell,
  lazyTreeRows,
  masterPane,
  parentIds,
  PLACEHOLDER,
  rangeText,
  recordKey,
  toggleKey,
  treeOptions,
  treeRequest,
  treeValueIn,
  treeValueOut,
  widgetFor,
  withDialogWidth,
} from '../../../src/runtime/model/index.js';
import { actionFor, registeredNames } from '../../../src/runtime/react/registry.js';
import '../../../src/runtime/react/widgets.js';
import '../../../src/runtime/react/Cell.js';
import '../../../src/runtime/react/views.js';

const dept = {
  id: 'dept',
  schemaVersion: 1,
  title: 'dept.title',
  route: '/system/dept',
  view: { type: 'tree', lazy: true },
  resource: { api: '/api/blade-system/dept', table: 'blade_dept', permissionPrefix: 'dept', tree: { parentField: 'parentId', labelField: 'deptName' } },
  schema: {
    type: 'object',
    properties: {
      deptName: { type: 'string', title: 'dept.field.deptName' },
      parentId: { type: 'string', title: 'dept.field.parentId', 'x-lookup': { screen: 'dept', label: 'deptName' } },
      roleId: { type: 'string', 'x-joined': true },
      online: { type: 'array', maxItems: 2, minItems: 2, items: { type: 'string', format: 'date-time' } },
    },
  },
  list: { columns: [{ field: 'deptName' }, { field: 'parentId' }, { field: 'online' }] },
} as unknown as ScreenDocument;

const region = { ...dept, resource: { ...dept.resource, tree: { parentField: 'parentCode', labelField: 'name', keyField: 'code' } } } as ScreenDocument;

describe('tree model', () => {
  it('a child starts with its parent field holding the row key (id, or the tree key field)', () => {
    expect(addChildInitial(dept, { id: '12', deptName: '财务部' })).toEqual({ parentId: '12' });
    expect(addChildInitial(region, { id: '9', code: '110101' })).toEqual({ parentCode: '110101' });
    expect(recordKey(region, { id: '9', code: '110101' })).toBe('110101');
  });

  it('a lazy tree gives unloaded parents a placeholder child and attaches loaded children', () => {
    const roots = [
      { id: '1', deptName: '总部', hasChildren: true },
      { id: '2', deptName: '分部', hasChildren: false },
    ];
    const before = lazyTreeRows(dept, roots, {});
    expect(childRows(before[0])).toEqual([{ id: `1${PLACEHOLDER}`, [PLACEHOLDER]: true }]);
    expect(childRows(before[1])).toBeUndefined();
    expect(parentIds(before)).toEqual([]);
    const after = lazyTreeRows(dept, roots, { '1': [{ id: '3', deptName: '财务部', hasChildren: true }] });
    expect(childRows(after[0])!.map((r) => r.id)).toEqual(['3']);
    expect(childRows(childRows(after[0])![0])![0][PLACEHOLDER]).toBe(true);
    expect(parentIds(after)).toEqual(['1']);
  });

  it('expand state toggles without duplicates', () => {
    expect(toggleKey(['1'], '1', true)).toEqual(['1']);
    expect(toggleKey(['1'], '2', true)).toEqual(['1', '2']);
    expect(toggleKey(['1', '2'], '1', false)).toEqual(['2']);
  });
});

describe('master-detail model', () => {
  const view: MasterDetailView = { type: 'master-detail', master: 'dict', detail: 'dict', link: 'parentId', layout: 'horizontal', masterList: 'parent-list', detailList: 'child-list', dialogWidth: 880 };
  it('the master lists its endpoint; the detail waits for a master, then lists and adds with the link', () => {
    expect(masterPane(view)).toEqual({ endpoint: 'parent-list' });
    expect(detailPane(view, undefined)).toBeNull();
    expect(detailPane(view, '1001')).toEqual({ endpoint: 'child-list', fixed: { parentId: '1001' }, addInitial: { parentId: '1001' } });
    expect(detailPane({ ...view, detailList: undefined }, '7')!.endpoint).toBe('list');
  });
  it('dialogWidth applies to the documents’ dialogs', () => {
    expect(withDialogWidth(dept, 880).dialog).toEqual({ width: 880 });
    expect(withDialogWidth(dept, undefined)).toBe(dept);
  });
});

describe('tree-select values', () => {
  it('x-joined strings go in as keys and come out comma-joined', () => {
    const o = { multiple: true, joined: true };
    expect(treeValueIn('1,2,3', o)).toEqual(['1', '2', '3']);
    expect(treeValueIn(undefined, o)).toEqual([]);
    expect(treeValueOut(['1', '3'], o)).toBe('1,3');
    expect(treeValueOut([], o)).toBeUndefined();
    // checkStrictly hands labelled values
    expect(treeValueOut([{ value: '4', label: 'x' }, { value: '5', label: 'y' }], o)).toBe('4,5');
  });
  it('arrays stay arrays (numbers when the items are numbers); single values stay single', () => {
    expect(treeValueOut(['1', '2'], { multiple: true, numeric: true })).toEqual([1, 2]);
    expect(treeValueIn([1, 2], { multiple: true })).toEqual(['1', '2']);
    expect(treeValueIn(12, {})).toBe('12');
    expect(treeValueOut('12', { numeric: true })).toBe(12);
    expect(treeValueOut('12', {})).toBe('12');
    expect(treeValueOut(undefined, {})).toBeUndefined();
  });
  it('TreeNodes become options; leafOnly makes parents unselectable', () => {
    const nodes = [{ id: '1', value: '1', title: '总部', children: [{ id: '2', key: '2', title: '财务部' }] }];
    const opts = treeOptions(nodes, { leafOnly: true });
    expect(opts[0]).toMatchObject({ value: '1', title: '总部', selectable: false, disableCheckbox: true });
    expect(opts[0].children![0]).toMatchObject({ value: '2', title: '财务部', isLeaf: true });
    expect(opts[0].children![0].selectable).toBeUndefined();
  });
  it('the request: a screen’s {api}/tree, or an endpoint with params and params from the form', () => {
    expect(treeRequest({ screen: 'dept' }, {}, '/api/blade-system/dept')).toEqual({ url: '/api/blade-system/dept/tree', params: {} });
    const src = { endpoint: '/api/blade-system/dept/tree', params: { a: 1 }, paramsFrom: { tenantId: 'tenantId' } };
    expect(treeRequest(src, {})).toBeNull();
    expect(treeRequest(src, { tenantId: '000000' })).toEqual({ url: '/api/blade-system/dept/tree', params: { a: 1, tenantId: '000000' } });
  });
});

describe('cells', () => {
  it('a lookup column shows its label field; a date pair is a formatted range', () => {
    const cols = columnsModel(dept).columns;
    expect(cols.find((c) => c.field === 'parentId')).toMatchObject({ render: 'lookup', labelField: 'parentIdName' });
    const online = cols.find((c) => c.field === 'online')!;
    expect(online.render).toBe('daterange');
    expect(formatCell(online, ['2026-01-01 00:00:00', '2026-02-01 00:00:00'], {}, 'zh')).toBe('2026-01-01 ~ 2026-02-01');
    expect(rangeText('["2026-01-01 08:30:00","2026-02-01 18:00:00"]')).toBe('2026-01-01 08:30:00 ~ 2026-02-01 18:00:00');
  });
});

describe('registries', () => {
  it('every widget, cell and view name of the shared registry has a runtime component', () => {
    const names = registeredNames();
    expect(widgetNames().filter((w) => !names.widgets.includes(w))).toEqual([]);
    expect(CELL_NAMES.filter((c) => !names.cells.includes(c))).toEqual([]);
    expect(VIEW_NAMES.filter((v) => !names.views.includes(v))).toEqual([]);
    expect(ACTION_DIALOG_NAMES.filter((d) => !names.actionDialogs.includes(d))).toEqual([]);
  });
  it('the dialog accepts exactly the shared widget names', () => {
    expect(widgetFor({ type: 'string' }, { 'ui:widget': 'treeSelect' })).toBe('treeSelect');
    expect(widgetFor({ type: 'string' }, { 'ui:widget': 'icon' })).toBe('icon');
    expect(widgetFor({ type: 'string' }, { 'ui:widget': 'treeSelectt' })).toBeUndefined();
  });
  it('addChild applies to tree documents only', () => {
    const a = actionFor('addChild')!;
    expect(a.applies!(dept)).toBe(true);
    expect(a.applies!({ ...dept, view: { type: 'list' } } as ScreenDocument)).toBe(false);
    expect(a.applies!({ ...dept, view: { type: 'tree', addChild: false } } as ScreenDocument)).toBe(false);
  });
});
