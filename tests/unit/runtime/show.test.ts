/** Row actions with `show`: the request for a row's records and the read-only table drawn with another screen's list. */
import { describe, expect, it } from 'vitest';
import settlementJson from '../../../schemas/business/settlement.json';
import orderJson from '../../../schemas/business/order.json';
import type { ScreenDocument } from '../../../src/shared/document.js';
import { actionRequest, actionUrl, actionsModel, formatCell, rowActions, showModel, showRequest, type DictMap } from '../../../src/runtime/model/index.js';

const settlement = settlementJson as unknown as ScreenDocument;
const order = orderJson as unknown as ScreenDocument;
const details = settlement.list.actions!.find((a) => a.name === 'details')!;

describe('show actions', () => {
  it('the settlement offers its details (the orders it covers) to holders of settlement_view, on every row', () => {
    expect(details).toMatchObject({ position: 'row', method: 'GET', endpoint: 'detail/list', permission: 'settlement_view', show: { screen: 'order', param: 'settlementId' } });
    const model = actionsModel(settlement, { settlement_view: true });
    const labels = (row: Record<string, unknown>) => rowActions(model, row).map((i) => i.labelKey);
    expect(labels({ id: '1', status: 1 })).toContain('settlement.action.details');
    expect(labels({ id: '2', status: 2 })).toEqual(['common.action.view', 'settlement.action.details']);
    expect(rowActions(actionsModel(settlement, { settlement_audit: true }), { id: '1', status: 1 }).map((i) => i.labelKey)).not.toContain('settlement.action.details');
  });

  it('asks the endpoint for one page of the row: <param>=<row id>, current, size', () => {
    expect(showRequest(settlement, details, { id: '1900000000000000123', status: 2 }, { current: 2, size: 10 })).toEqual({
      method: 'GET',
      url: '/api/settlement/detail/list',
      params: { settlementId: '1900000000000000123', current: 2, size: 10 },
    });
    const audit = settlement.list.actions!.find((a) => a.name === 'audit')!;
    expect(() => showRequest(settlement, audit, { id: '1' }, { current: 1, size: 10 })).toThrow(/no "show"/);
  });

  it('an absolute /api/… endpoint is used as it stands (also by ordinary actions)', () => {
    const abs = { ...details, endpoint: '/api/order/list' };
    expect(actionUrl(settlement, abs)).toBe('/api/order/list');
    expect(showRequest(settlement, abs, { id: '7' }, { current: 1, size: 30 }).url).toBe('/api/order/list');
    expect(actionRequest(settlement, { ...abs, show: undefined }, { row: { id: '7' } }).url).toBe('/api/order/list');
    expect(actionUrl(settlement, details)).toBe('/api/settlement/detail/list');
  });

  it('draws the records with the named screen’s visible list columns: titles, dictionaries, money', () => {
    const m = showModel(details, order);
    const visible = order.list.columns.filter((c) => !c.hidden).map((c) => c.field);
    expect(m.columns.map((c) => c.field)).toEqual(visible);
    expect(m.columns.map((c) => c.field)).not.toContain('cardNo'); // hidden by default in the order list
    const col = (f: string) => m.columns.find((c) => c.field === f)!;
    expect(col('orderType')).toMatchObject({ titleKey: 'order.field.orderType', render: 'dict', dictCode: 'order_type' });
    expect(col('status')).toMatchObject({ render: 'dict', dictCode: 'order_status' });
    expect(col('payAmount')).toMatchObject({ titleKey: 'order.field.payAmount', render: 'money' });
    expect(col('createTime')).toMatchObject({ titleKey: 'order.field.payTime', render: 'date-time' });
    expect(m).toMatchObject({ index: true, pageSizes: [10, 30, 50, 100, 200], defaultPageSize: 10, width: 1000 });
    expect(showModel({ ...details, show: { ...details.show!, width: 1200 } }, order).width).toBe(1200);
    // a record of detail/list as the server sends it (money as numbers) renders like the order list's cells
    const dicts: DictMap = { order_type: [{ dictKey: '1', dictValue: '消费', dictValueEn: 'Payment' }] };
    expect(formatCell(col('payAmount'), 30, dicts, 'zh-CN')).toBe('30.00');
    expect(formatCell(col('payAmount'), 10.2, dicts, 'zh-CN')).toBe('10.20');
    expect(formatCell(col('orderType'), 1, dicts, 'zh-CN')).toBe('消费');
  });
});
