import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { customizeValidator } from '@rjsf/validator-ajv8';
import { retrieveSchema } from '@rjsf/utils';
import merchantJson from '../../../schemas/business/merchant.json';
import orderJson from '../../../schemas/business/order.json';
import settlementJson from '../../../schemas/business/settlement.json';
import zh from '../../../locales/zh.json';
import type { ScreenDocument } from '../../../src/shared/document.js';
import { CUSTOM_FORMATS } from '../../../src/shared/form.js';
import {
  actionRequest,
  actionsModel,
  checkSelection,
  columnsModel,
  createTransformErrors,
  dialogModel,
  dictCodes,
  dictLabel,
  dictOptions,
  errorsOfTouched,
  exportParams,
  fieldOfId,
  formatCell,
  initialVisibility,
  listParams,
  normalizeDictBatch,
  prepareFormData,
  rowActions,
  searchDefaults,
  splitRowItems,
  searchModel,
  serverFieldErrors,
  submitPayload,
  toParams,
  totalText,
  groupedThousands,
  validateSearch,
  visibleFields,
  visibleWhen,
  widgetFor,
  type DictMap,
} from '../../../src/runtime/model/index.js';

const merchant = merchantJson as unknown as ScreenDocument;
const keyT = (k: string) => k;

/** A small screen, written here, so the models are checked on more than the merchant document. */
const note: ScreenDocument = {
  id: 'note',
  schemaVersion: 1,
  title: 'note.title',
  route: '/note/note',
  resource: { api: '/api/note/', table: 'note', permissionPrefix: 'note' },
  schema: {
    type: 'object',
    required: ['title', 'kind'],
    properties: {
      title: { type: 'string', title: 'note.field.title', maxLength: 10 },
      kind: { type: 'integer', title: 'note.field.kind', 'x-dict': 'note_kind' },
      amount: { type: 'number', title: 'note.field.amount', minimum: 0, multipleOf: 0.01 },
      day: { type: 'string', title: 'note.field.day', format: 'date' },
      meta: { type: 'object', title: 'note.field.meta' },
    },
  },
  list: {
    columns: [{ field: 'title' }, { field: 'kind', hidden: true }, { field: 'amount', render: 'money', sortable: true }, { field: 'day' }, { field: 'meta' }],
    search: [
      { field: 'title', op: 'prefix' },
      { field: 'amount', op: 'range' },
      { field: 'day', op: 'dateRange', required: 'note.msg.day', default: ['2026-01-01', '2026-01-31'] },
    ],
    index: false,
    selection: false,
    builtins: ['view', 'export'],
    actions: [
      { name: 'close', label: 'note.action.close', position: 'row', method: 'POST', endpoint: 'close', permission: 'note_close', visibleWhen: [{ field: 'kind', in: [1, 2] }, { field: 'title', ne: null }] },
      { name: 'purge', label: 'note.action.purge', position: 'toolbar', method: 'POST', endpoint: 'purge', permission: 'note_purge', selection: true },
    ],
  },
};

describe('columns model', () => {
  it('merchant columns: titles, render kinds, dictionaries, widths, hidden and sortable', () => {
    const m = columnsModel(merchant);
    const by = Object.fromEntries(m.columns.map((c) => [c.field, c]));
    expect(m.columns.map((c) => c.field)).toEqual(merchant.list.columns.map((c) => c.field));
    expect(by.merchantName).toMatchObject({ titleKey: 'merchant.field.merchantName', width: 160, sortable: true, hidden: false, render: 'text' });
    expect(by.logoUrl.render).toBe('image');
    expect(by.feeRatio.render).toBe('percent');
    expect(by.status).toMatchObject({ render: 'dict', dictCode: 'merchant_status' });
    expect(by.bind).toMatchObject({ render: 'dict', dictCode: 'yes_no' });
    expect(by.contractEnd.render).toBe('date');
    expect(by.createTime).toMatchObject({ render: 'date-time', titleKey: 'common.field.createTime', sortable: true });
    expect(by.tel.hidden).toBe(true);
    expect(initialVisibility(m)).toEqual({ tel: false, address: false });
    expect(m).toMatchObject({ index: true, selection: true, pageSizes: [10, 30, 50, 100, 200], defaultPageSize: 10 });
    expect(m.defaultSort).toEqual([{ field: 'createTime', dir: 'desc' }]);
  });

  it('inline doc: json for objects, money, defaults when the list omits page sizes', () => {
    const m = columnsModel(note);
    const by = Object.fromEntries(m.columns.map((c) => [c.field, c]));
    expect(by.meta.render).toBe('json');
    expect(by.amount.render).toBe('money');
    expect(by.kind).toMatchObject({ render: 'dict', dictCode: 'note_kind', hidden: true });
    expect(m).toMatchObject({ index: false, selection: false, pageSizes: [10, 30, 50, 100, 200], defaultPageSize: 10 });
  });

  it('formats cells without float arithmetic', () => {
    const dicts: DictMap = { yes_no: [{ dictKey: '1', dictValue: '否', dictValueEn: 'No' }, { dictKey: '2', dictValue: '是', dictValueEn: 'Yes' }] };
    expect(formatCell({ render: 'dict', dictCode: 'yes_no' }, 2, dicts, 'zh')).toBe('是');
    expect(formatCell({ render: 'dict', dictCode: 'yes_no' }, '1', dicts, 'en')).toBe('No');
    expect(formatCell({ render: 'money' }, '12.5', dicts, 'zh')).toBe('12.50');
    expect(formatCell({ render: 'money' }, 0.1 + 0.2, dicts, 'zh')).toBe('0.30');
    expect(formatCell({ render: 'money' }, '1000', dicts, 'zh')).toBe('1000.00');
    expect(formatCell({ render: 'percent' }, 3.5, dicts, 'zh')).toBe('3.5%');
    expect(formatCell({ render: 'date' }, '2026-03-01 00:00:00', dicts, 'zh')).toBe('2026-03-01');
    expect(formatCell({ render: 'json' }, { a: 1 }, dicts, 'zh')).toBe('{"a":1}');
    expect(formatCell({ render: 'text' }, null, dicts, 'zh')).toBe('');
  });
});

describe('search model and params', () => {
  it('merchant search widgets and labels', () => {
    const m = searchModel(merchant);
    expect(m.fields.map((f) => [f.field, f.widget])).toEqual([
      ['merchantName', 'text'],
      ['merchantNo', 'text'],
      ['status', 'dict'],
      ['enableFlag', 'dict'],
      ['createTime', 'dateRange'],
    ]);
    expect(m.fields[2]).toMatchObject({ dictCode: 'merchant_status', numeric: true, labelKey: 'merchant.field.status' });
    expect(m.fields[4].labelKey).toBe('common.field.createTime');
  });

  it('date range → _datege from and _datelt the next day (month and year ends too); equal and contains', () => {
    expect(toParams(merchant, { merchantName: ' 老王 ', merchantNo: 'SH1', status: 1, createTime: ['2026-02-27', '2026-02-28'] })).toEqual({
      merchantName: '老王',
      merchantNo_equal: 'SH1',
      status_equal: '1',
      createTime_datege: '2026-02-27 00:00:00',
      createTime_datelt: '2026-03-01 00:00:00',
    });
    expect(toParams(merchant, { createTime: ['2026-12-31', '2026-12-31'] })).toEqual({
      createTime_datege: '2026-12-31 00:00:00',
      createTime_datelt: '2027-01-01 00:00:00',
    });
    expect(toParams(merchant, { merchantName: '', status: undefined, createTime: [] })).toEqual({});
  });

  it('inline doc: prefix, number range, required search and its default', () => {
    const m = searchModel(note);
    expect(m.fields.map((f) => f.widget)).toEqual(['text', 'numberRange', 'dateRange']);
    expect(searchDefaults(m)).toEqual({ day: ['2026-01-01', '2026-01-31'] });
    expect(validateSearch(m, {})).toEqual([{ field: 'day', message: 'note.msg.day' }]);
    expect(validateSearch(m, { day: [null, null] })).toHaveLength(1);
    expect(validateSearch(m, { day: ['2026-01-01', '2026-01-02'] })).toEqual([]);
    expect(toParams(note, { title: 'ab', amount: [1, ''] })).toEqual({ title_likeright: 'ab', amount_ge: '1' });
  });

  it('today default resolves to the current day', () => {
    const m = searchModel({ ...note, list: { ...note.list, search: [{ field: 'day', op: 'dateRange', default: 'today' }] } });
    expect(searchDefaults(m, new Date(2026, 4, 7))).toEqual({ day: ['2026-05-07', '2026-05-07'] });
  });

  it('list and export params: paging, sort as snake_case ascs/descs, visible columns, language', () => {
    expect(listParams(merchant, { current: 2, size: 30, search: { status: 2 }, sorting: [{ id: 'createTime', desc: true }, { id: 'merchantName', desc: false }] })).toEqual({
      status_equal: '2',
      descs: 'create_time',
      ascs: 'merchant_name',
      current: 2,
      size: 30,
    });
    expect(exportParams(merchant, { search: {}, sorting: [] }, ['merchantNo', 'status'], 'en-US')).toEqual({ columns: 'merchantNo,status', lang: 'en' });
  });
});

describe('pager total', () => {
  it('is exact (共 N 条) unless the server marked it estimated (约 N 条), with thousands separators', () => {
    expect(totalText({ totalEstimated: true }, 954711)).toEqual(['common.list.totalAbout', { total: '954,711' }]);
    expect(totalText({}, 42)).toEqual(['common.list.total', { total: '42' }]);
    for (const n of [0, 7, 999, 1000, 12345, 999999, 1000000, 1234567890, -4200, 12.5]) expect(groupedThousands(n)).toBe(n.toLocaleString('en-US'));
    expect(totalText(undefined, 1000)).toEqual(['common.list.total', { total: '1,000' }]);
  });
});

describe('dialog model', () => {
  it('money and fee ratios of the order and settlement views show 2 decimals (0.00, 2.00 %)', () => {
    const opts = (doc: unknown, f: string) => (dialogModel(doc as ScreenDocument, 'view', keyT).uiSchema[f] as any)['ui:options'];
    for (const f of ['orderAmount', 'payAmount', 'refundAmount']) expect(opts(orderJson, f)).toMatchObject({ precision: 2 });
    expect(opts(orderJson, 'feeRatio')).toMatchObject({ precision: 2, suffix: '%' });
    for (const f of ['paidAmount', 'refundAmount', 'amount', 'feeAmount', 'netAmount']) expect(opts(settlementJson, f)).toMatchObject({ precision: 2 });
    expect(opts(settlementJson, 'feeRatio')).toMatchObject({ precision: 2, suffix: '%' });
  });

  it('translates the i18n keys of title and description (the hint under a field)', () => {
    const doc = {
      ...merchant,
      schema: {
        ...merchant.schema,
        properties: {
          ...merchant.schema.properties,
          feeRatio: { ...(merchant.schema.properties as any).feeRatio, description: 'merchant.help.feeRatio' },
        },
      },
    } as unknown as ScreenDocument;
    const m = dialogModel(doc, 'add', (k) => `T(${k})`);
    const props = m.schema.properties as any;
    expect(props.feeRatio.description).toBe('T(merchant.help.feeRatio)');
    expect(props.feeRatio.title).toBe('T(merchant.field.feeRatio)');
  });

  it('per-mode fields: loginPsw only in add, merchantNo hidden in add and read-only in view', () => {
    const add = dialogModel(merchant, 'add', keyT);
    const edit = dialogModel(merchant, 'edit', keyT);
    const view = dialogModel(merchant, 'view', keyT);
    const props = (m: typeof add) => Object.keys(m.schema.properties as object);
    expect(props(add)).toContain('loginPsw');
    expect(props(edit)).not.toContain('loginPsw');
    expect(props(view)).not.toContain('loginPsw');
    expect(props(view)).not.toContain('payPsw');
    expect(props(add)).not.toContain('merchantNo');
    expect(props(edit)).toContain('merchantNo');
    expect(view.readonly).toContain('merchantNo');
    expect((view.uiSchema.merchantNo as any)['ui:readonly']).toBe(true);
    expect((edit.uiSchema.merchantNo as any)['ui:readonly']).toBe(true);
    expect((edit.uiSchema.merchantName as any)['ui:readonly']).toBeUndefined();
    expect(add.required).toEqual(['merchantName', 'loginPhone', 'loginPsw', 'payPsw', 'feeRatio', 'contractDaterange', 'enableFlag', 'enableTime']);
    expect(edit.required).toEqual(['merchantName', 'loginPhone', 'feeRatio', 'contractDaterange', 'enableFlag', 'enableTime']);
    expect(view.required).toEqual([]);
    expect(add.width).toBe(780);
    expect(add.columns).toBe(2);
  });

  it('uiSchema: translated titles, order, registry widgets, placeholders, counters, spans', () => {
    const t = (k: string, p?: Record<string, unknown>) => (p?.field ? `${k}(${p.field})` : `T:${k}`);
    const add = dialogModel(merchant, 'add', t);
    const ui = add.uiSchema as Record<string, any>;
    expect(ui['ui:order'][0]).toBe('merchantName');
    expect(ui['ui:order'].at(-1)).toBe('*');
    expect((add.schema.properties as any).merchantName.title).toBe('T:merchant.field.merchantName');
    expect(ui.merchantName['ui:title']).toBe('T:merchant.field.merchantName');
    expect(ui.merchantName['ui:placeholder']).toBe('common.placeholder.input(T:merchant.field.merchantName)');
    expect(ui.status['ui:placeholder']).toBe('common.placeholder.select(T:merchant.field.status)');
    expect(ui.status['ui:widget']).toBe('dict');
    expect(ui.status['ui:options']).toMatchObject({ dictCode: 'merchant_status', numeric: true, span: 12 });
    expect(ui.loginPsw['ui:widget']).toBe('password');
    expect(ui.feeRatio['ui:options']).toMatchObject({ precision: 2, suffix: '%' });
    expect(ui.contractDaterange['ui:widget']).toBe('daterange');
    expect(ui.enableTime['ui:widget']).toBe('datetime');
    expect(ui.remarks).toMatchObject({ 'ui:widget': 'textarea' });
    expect(ui.remarks['ui:options']).toMatchObject({ span: 24, counter: true, maxLength: 144, rows: 3 });
    expect(ui.logoUrl['ui:options']).toMatchObject({ accept: ['image/png', 'image/jpeg'], maxSize: 1048576, endpoint: 'put-file-attach', screen: 'merchant', field: 'logoUrl', tip: 'T:merchant.tip.logo' });
    expect(ui['ui:submitButtonOptions']).toEqual({ norender: true });
    expect(widgetFor({ type: 'string', format: 'yyyyMM' }, {})).toBe('month');
    expect(widgetFor({ type: 'string' }, {})).toBeUndefined();
  });

  it('enableTime is present only when enableFlag is 3 (pure and through rjsf retrieveSchema)', () => {
    expect(visibleFields(merchant, 'add', { enableFlag: 1 })).not.toContain('enableTime');
    expect(visibleFields(merchant, 'add', { enableFlag: 3 })).toContain('enableTime');
    expect(visibleFields(merchant, 'add', { enableFlag: '3' })).toContain('enableTime');
    const validator = customizeValidator({ customFormats: CUSTOM_FORMATS });
    const schema = dialogModel(merchant, 'add', keyT).schema as any;
    const r1 = retrieveSchema(validator, schema, schema, { enableFlag: 1 }) as any;
    const r3 = retrieveSchema(validator, schema, schema, { enableFlag: 3 }) as any;
    expect(Object.keys(r1.properties)).not.toContain('enableTime');
    expect(Object.keys(r3.properties)).toContain('enableTime');
    expect(r3.required).toContain('enableTime');
  });

  it('transformErrors gives the document messages, under the field, deduplicated', () => {
    const validator = customizeValidator({ customFormats: CUSTOM_FORMATS });
    const model = dialogModel(merchant, 'add', keyT);
    const transform = createTransformErrors(merchant, keyT);
    const run = (data: Record<string, unknown>) => {
      const { errors } = validator.validateFormData(data, model.schema as any, undefined, transform as any);
      return Object.fromEntries(errors.map((e) => [e.property, e.message]));
    };
    const empty = run({ enableFlag: 1 });
    expect(empty['.merchantName']).toBe('merchant.msg.merchantName');
    expect(empty['.loginPhone']).toBe('merchant.msg.loginPhone');
    expect(empty['.loginPsw']).toBe('merchant.msg.loginPsw');
    expect(empty['.payPsw']).toBe('merchant.msg.payPsw');
    expect(empty['.feeRatio']).toBe('merchant.msg.feeRatio');
    expect(empty['.contractDaterange']).toBe('merchant.msg.contractDaterange');
    expect(empty['.enableTime']).toBeUndefined();
    const bad = run({
      merchantName: '一二三四五六七八九十一二三四五六七八九十多',
      loginPhone: '1234',
      loginPsw: '123',
      payPsw: 'abc',
      feeRatio: 100.5,
      contractDaterange: ['2026-01-01', '2026-12-31'],
      enableFlag: 3,
    });
    expect(bad['.merchantName']).toBe('merchant.msg.merchantNameMax');
    expect(bad['.loginPhone']).toBe('common.msg.phoneLength');
    expect(bad['.loginPsw']).toBe('merchant.msg.loginPswLength');
    expect(bad['.payPsw']).toBe('merchant.msg.payPswDigits');
    expect(bad['.feeRatio']).toBe('merchant.msg.feeRatioRange');
    expect(bad['.enableTime']).toBe('merchant.msg.enableTime');
    const ok = run({ merchantName: '老王', loginPhone: '13800138000', loginPsw: '123456', payPsw: '123', feeRatio: 1.25, contractDaterange: ['2026-01-01', '2026-12-31'], enableFlag: 3, enableTime: '2026-05-01 08:00:00' });
    expect(ok).toEqual({});
    const decimals = run({ merchantName: 'x', loginPhone: '13800138000', loginPsw: '123456', payPsw: '1', feeRatio: 1.234, contractDaterange: ['2026-01-01', '2026-01-02'], enableFlag: 1 });
    expect(decimals).toEqual({ '.feeRatio': 'merchant.msg.feeRatioDecimals' });
  });

  it('common messages interpolate the translated title and the limit (real zh texts)', async () => {
    const i18n = i18next.createInstance();
    await i18n.init({ lng: 'zh', resources: { zh: { translation: { ...zh, note: { field: { title: '标题', kind: '类型' } } } } }, interpolation: { escapeValue: false } });
    const t = i18n.t.bind(i18n) as unknown as (k: string, p?: Record<string, unknown>) => string;
    const validator = customizeValidator({ customFormats: CUSTOM_FORMATS });
    const model = dialogModel(note, 'add', t);
    const { errors } = validator.validateFormData({ title: '12345678901' }, model.schema as any, undefined, createTransformErrors(note, t) as any);
    const by = Object.fromEntries(errors.map((e) => [e.property, e.message]));
    expect(by['.title']).toBe('长度不能超过10个字符');
    expect(by['.kind']).toBe('请输入类型');
  });

  it('only touched fields show errors until submit', () => {
    const errs = [
      { name: 'required', property: '.merchantName', stack: '' },
      { name: 'pattern', property: '.loginPhone', stack: '' },
    ];
    expect(errorsOfTouched(errs, new Set(['loginPhone'])).map((e) => e.property)).toEqual(['.loginPhone']);
    expect(errorsOfTouched(errs, 'all')).toHaveLength(2);
    expect(fieldOfId('root_contractDaterange_0')).toBe('contractDaterange');
    expect(fieldOfId('root_merchantName')).toBe('merchantName');
  });

  it('form data in: nulls, blanks and write-only fields dropped, types coerced, id kept', () => {
    const data = prepareFormData(merchant, {
      id: 123,
      merchantName: '老王',
      licenseNo: null,
      address: '',
      loginPsw: 'hash',
      payPsw: 'hash',
      feeRatio: '1.50',
      status: '2',
      contractEnd: '2026-12-31 00:00:00',
      contractDaterange: '["2026-01-01","2026-12-31"]',
      enableTime: '2026-05-01T08:00:00',
      unknown: 1,
    });
    expect(data).toEqual({
      id: '123',
      merchantName: '老王',
      feeRatio: 1.5,
      status: 2,
      contractEnd: '2026-12-31',
      contractDaterange: ['2026-01-01', '2026-12-31'],
      enableTime: '2026-05-01 08:00:00',
    });
  });

  it('submit payload: editable fields only, id kept in edit, cleared fields null, failed conditions dropped', () => {
    const form = { id: '9', merchantNo: 'SH1', merchantName: ' 老王 ', enableFlag: 1, enableTime: '2026-05-01 08:00:00', loginPsw: '123456', status: 1 };
    const add = submitPayload(merchant, 'add', form);
    expect(add).toMatchObject({ merchantName: '老王', enableFlag: 1, loginPsw: '123456', status: 1 });
    expect(add).not.toHaveProperty('id');
    expect(add).not.toHaveProperty('merchantNo');
    expect(add).not.toHaveProperty('enableTime');
    expect(add).not.toHaveProperty('licenseNo');
    const edit = submitPayload(merchant, 'edit', form);
    expect(edit.id).toBe('9');
    expect(edit).not.toHaveProperty('merchantNo');
    expect(edit).not.toHaveProperty('loginPsw');
    expect(edit).not.toHaveProperty('bind');
    expect(edit.licenseNo).toBeNull();
    expect(edit.enableTime).toBeNull();
    expect(submitPayload(merchant, 'edit', { ...form, enableFlag: 3 }).enableTime).toBe('2026-05-01 08:00:00');
  });

  it('server field errors become rjsf extraErrors', () => {
    expect(serverFieldErrors([{ field: 'merchantName', messageKey: 'merchant.msg.merchantName' }], keyT)).toEqual({ merchantName: { __errors: ['merchant.msg.merchantName'] } });
    expect(serverFieldErrors({ errors: [{ property: '.loginPhone', message: 'x' }] }, keyT)).toEqual({ loginPhone: { __errors: ['x'] } });
    expect(serverFieldErrors({ tel: 'bad' }, keyT)).toEqual({ tel: { __errors: ['bad'] } });
    expect(serverFieldErrors(null, keyT)).toBeUndefined();
  });
});

describe('actions model', () => {
  const all = Object.fromEntries(
    ['merchant_add', 'merchant_edit', 'merchant_delete', 'merchant_view', 'merchant_export', 'merchant_reset_login_psw', 'merchant_clear_pay_psw', 'merchant_unbind'].map((c) => [c, true]),
  );

  it('administrator sees every button', () => {
    const m = actionsModel(merchant, all);
    expect(m.toolbar.map((i) => i.kind)).toEqual(['add', 'delete', 'export']);
    expect(m.row.map((i) => (i.kind === 'action' ? i.action.name : i.kind))).toEqual(['view', 'edit', 'delete', 'resetLoginPsw', 'clearPayPsw', 'unbind']);
    expect(m.toolbar[0].labelKey).toBe('common.action.add');
  });

  it('a read-only role sees view and export only; no permissions, no buttons', () => {
    const m = actionsModel(merchant, { merchant_view: true, merchant_export: true, merchant_add: false });
    expect(m.toolbar.map((i) => i.kind)).toEqual(['export']);
    expect(m.row.map((i) => i.kind)).toEqual(['view']);
    expect(actionsModel(merchant, {})).toEqual({ toolbar: [], row: [] });
    expect(actionsModel(merchant, undefined)).toEqual({ toolbar: [], row: [] });
  });

  it('unbind shows only for bound rows (bind = 2, loose)', () => {
    const m = actionsModel(merchant, all);
    const names = (row: Record<string, unknown>) => rowActions(m, row).map((i) => (i.kind === 'action' ? i.action.name : i.kind));
    expect(names({ id: '1', bind: 1 })).not.toContain('unbind');
    expect(names({ id: '1', bind: 2 })).toContain('unbind');
    expect(names({ id: '1', bind: '2' })).toContain('unbind');
  });

  it('keeps at most three row buttons inline and folds the rest into "more" (four fit inline)', () => {
    const m = actionsModel(merchant, all);
    const kinds = (items: ReturnType<typeof rowActions>) => items.map((i) => (i.kind === 'action' ? i.action.name : i.kind));
    const bound = splitRowItems(rowActions(m, { id: '1', bind: 2 }));
    expect(kinds(bound.inline)).toEqual(['view', 'edit', 'delete']);
    expect(kinds(bound.more)).toEqual(['resetLoginPsw', 'clearPayPsw', 'unbind']);
    expect(splitRowItems([1, 2, 3, 4])).toEqual({ inline: [1, 2, 3, 4], more: [] });
    expect(splitRowItems([1, 2, 3, 4, 5])).toEqual({ inline: [1, 2, 3], more: [4, 5] });
  });

  it('built-ins the screen forbids stay hidden even with the permission; visibleWhen in/ne', () => {
    const perms = { note_add: true, note_edit: true, note_view: true, note_export: true, note_close: true, note_purge: true, note_delete: true };
    const m = actionsModel(note, perms);
    expect(m.toolbar.map((i) => (i.kind === 'action' ? i.action.name : i.kind))).toEqual(['export', 'purge']);
    expect(m.row.map((i) => (i.kind === 'action' ? i.action.name : i.kind))).toEqual(['view', 'close']);
    expect(visibleWhen(note.list.actions![0].visibleWhen, { kind: 2, title: 'a' })).toBe(true);
    expect(visibleWhen(note.list.actions![0].visibleWhen, { kind: 3, title: 'a' })).toBe(false);
    expect(visibleWhen(note.list.actions![0].visibleWhen, { kind: 1, title: '' })).toBe(false);
    expect(visibleWhen(undefined, {})).toBe(true);
    expect(visibleWhen([{ field: 'x', eq: null }], { x: null })).toBe(true);
  });

  it('the import built-in is a toolbar action with its file form and template, behind <prefix>_import', () => {
    const withImport = { ...merchant, list: { ...merchant.list, builtins: ['add', 'import'] } } as ScreenDocument;
    const m = actionsModel(withImport, { merchant_add: true, merchant_import: true });
    const item = m.toolbar.find((i) => i.kind === 'action' && i.action.name === 'import');
    expect(item && item.kind === 'action' && item.action).toMatchObject({ endpoint: 'import', method: 'POST', permission: 'merchant_import', label: 'import.action.import' });
    expect(item && item.kind === 'action' && (item.action.form?.uiSchema as any)?.file['ui:options'].template).toBe('import/template');
    expect(actionsModel(withImport, { merchant_add: true }).toolbar.map((i) => i.kind)).toEqual(['add']);
    // not offered → no button, whatever the code
    expect(actionsModel(merchant, { merchant_import: true }).toolbar).toEqual([]);
    expect(actionRequest(withImport, (item as any).action, {}).url).toBe('/api/merchant/import');
  });

  it('delete with nothing selected warns; action requests', () => {
    expect(checkSelection([])).toBe('common.msg.selectOne');
    expect(checkSelection(['1'])).toBeNull();
    const reset = merchant.list.actions![0];
    expect(actionRequest(merchant, reset, { row: { id: '7' } })).toEqual({ method: 'GET', url: '/api/merchant/reset/loginPsw', params: { id: '7' } });
    expect(actionRequest(note, note.list.actions![1], { ids: ['1', '2'] })).toEqual({ method: 'POST', url: '/api/note/purge', params: { ids: '1,2' }, data: undefined });
    expect(actionRequest(note, note.list.actions![0], { row: { id: '3' } }, { amount: 1 }).data).toEqual({ amount: 1, id: '3' });
  });
});

describe('dictionaries', () => {
  it('every code a screen uses, sorted, once', () => {
    expect(dictCodes(merchant)).toEqual(['merchant_enable_flag', 'merchant_status', 'yes_no']);
    expect(dictCodes(note)).toEqual(['note_kind']);
  });

  it('labels by language with loose keys; unknown keys show raw; options typed', () => {
    const items = [
      { dictKey: 2, dictValue: '暂停营业', dictValueEn: 'Suspended', sort: 2 },
      { dictKey: '1', dictValue: '营业中', dictValueEn: 'Open', sort: 1 },
      { dictKey: '3', dictValue: '已停业', dictValueEn: null, sort: 3 },
    ];
    expect(dictLabel(items, 1, 'zh')).toBe('营业中');
    expect(dictLabel(items, '2', 'en')).toBe('Suspended');
    expect(dictLabel(items, 3, 'en')).toBe('已停业');
    expect(dictLabel(items, 9, 'zh')).toBe('9');
    expect(dictLabel(items, '1,2', 'zh')).toBe('营业中, 暂停营业');
    expect(dictLabel(items, null, 'zh')).toBe('');
    expect(dictLabel(undefined, 1, 'zh')).toBe('1');
    expect(dictOptions(items, 'en', true)).toEqual([
      { value: 1, label: 'Open' },
      { value: 2, label: 'Suspended' },
      { value: 3, label: '已停业' },
    ]);
    expect(dictOptions(items, 'zh')[0]).toEqual({ value: '1', label: '营业中' });
  });

  it('batch replies as a map or a flat list', () => {
    expect(normalizeDictBatch({ sex: [{ dictKey: 1, dictValue: '男' }] }, ['sex', 'yes_no'])).toEqual({ sex: [{ dictKey: 1, dictValue: '男' }], yes_no: [] });
    expect(normalizeDictBatch([{ code: 'sex', dictKey: 1, dictValue: '男' }], ['sex'])).toEqual({ sex: [{ code: 'sex', dictKey: 1, dictValue: '男' }] });
  });
});
