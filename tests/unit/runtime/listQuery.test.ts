/** The list's state in the URL query (Back and shared links restore it) and the page clamp after a delete. */
import { describe, expect, it } from 'vitest';
import { clampedPage, queryFromState, stateFromQuery, type ListState } from '../../../src/runtime/model/index.js';

const base: ListState = { current: 1, size: 10, search: {}, sorting: [{ id: 'createTime', desc: true }] };

describe('list state ↔ URL query', () => {
  it('writes only what differs from the defaults and reads it back', () => {
    const state: ListState = { current: 3, size: 30, search: { merchantName: '老王', status: 1, createTime: ['2026-01-01', '2026-01-31'] }, sorting: [{ id: 'sort', desc: false }] };
    const q = queryFromState('', state, base);
    expect(q).toContain('page=3');
    expect(q).toContain('size=30');
    expect(q).toContain('sort=sort');
    expect(new URLSearchParams(q).get('s.merchantName')).toBe('老王');
    expect(stateFromQuery(q, base, '', [10, 30])).toEqual(state);
    expect(queryFromState('', base, base)).toBe('');
  });

  it('keeps other keys and another list’s prefix apart', () => {
    const master = queryFromState('?sel=7&x=1', { ...base, current: 2 }, base, 'm.');
    const both = queryFromState(master, { ...base, current: 4, search: { dictValue: '男' } }, base, 'd.');
    const p = new URLSearchParams(both);
    expect(p.get('sel')).toBe('7');
    expect(p.get('x')).toBe('1');
    expect(p.get('m.page')).toBe('2');
    expect(p.get('d.page')).toBe('4');
    expect(stateFromQuery(both, base, 'm.').current).toBe(2);
    expect(stateFromQuery(both, base, 'd.').search).toEqual({ dictValue: '男' });
    expect(stateFromQuery(both, base, 'm.').search).toEqual({});
  });

  it('a cleared default search stays cleared; the default applies when the link says nothing', () => {
    const withDefault: ListState = { ...base, search: { createTime: ['2026-11-01', '2026-11-30'] } };
    const q = queryFromState('', { ...withDefault, search: {} }, withDefault);
    expect(q).not.toBe('');
    expect(stateFromQuery(q, withDefault).search).toEqual({});
    expect(stateFromQuery('', withDefault).search).toEqual(withDefault.search);
  });

  it('ignores pages, sizes and sorts it cannot use', () => {
    const s = stateFromQuery('?page=-2&size=7&sort=drop%20table', base, '', [10, 30]);
    expect(s).toEqual(base);
    expect(stateFromQuery('?page=abc&size=30', base, '', [10, 30])).toMatchObject({ current: 1, size: 30 });
  });

  it('numbers and number-like text keep their type through the address', () => {
    const state: ListState = { ...base, search: { priority: 2, code: '0101' } };
    const back = stateFromQuery(queryFromState('', state, base), base);
    expect(back.search.priority).toBe(2);
    // '0101' is JSON-quoted on the way out, so it comes back as the same text
    expect(back.search.code).toBe('0101');
  });
});

describe('page clamp', () => {
  it('moves to the last page with rows when a page past the first comes back empty', () => {
    expect(clampedPage(3, 10, 20, 0)).toBe(2);
    expect(clampedPage(9, 10, 41, 0)).toBe(5);
    expect(clampedPage(3, 10, 0, 0)).toBe(1);
  });
  it('stays when the page has rows or is the first', () => {
    expect(clampedPage(3, 10, 25, 5)).toBeNull();
    expect(clampedPage(1, 10, 0, 0)).toBeNull();
  });
});

describe('the first reads of a list screen (start-up sends them before the screen code loads)', () => {
  it('are the page the list controller asks for at that address, and its dictionaries in one batch', async () => {
    const { firstListReads, baseState, listParams, stateFromQuery: fromQuery, listUrl } = await import('../../../src/runtime/model/index.js');
    const order = (await import('../../../schemas/business/order.json')).default as unknown as import('../../../src/shared/document.js').ScreenDocument;
    const reads = firstListReads(order, '?size=200&s.status=2');
    expect(reads.list?.url).toBe('/api/order/list');
    expect(reads.list?.params).toEqual({ status_equal: '2', descs: 'create_time', current: 1, size: 200 });
    // the same computation the controller makes from the same address
    expect(reads.list?.params).toEqual(listParams(order, fromQuery('?size=200&s.status=2', baseState(order), '', [10, 30, 50, 100, 200])));
    expect(reads.list?.url).toBe(listUrl(order, 'list'));
    expect(reads.dictCodes).toBe('order_status,order_type');
  });

  it('send no page while a required search is empty, and nothing for views that read otherwise', async () => {
    const { firstListReads } = await import('../../../src/runtime/model/index.js');
    const order = (await import('../../../schemas/business/order.json')).default as any;
    const required = { ...order, list: { ...order.list, search: [{ field: 'merchantName', op: 'contains', required: 'order.msg.merchantRequired' }] } };
    expect(firstListReads(required, '').list).toBeUndefined();
    expect(firstListReads({ ...order, view: { type: 'tree' } }, '')).toEqual({});
    expect(firstListReads({ ...order, list: { ...order.list, aside: { field: 'merchantId' } } }, '')).toEqual({});
  });
});
