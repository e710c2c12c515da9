import { describe, expect, it } from 'vitest';
import {
  OP_SUFFIXES, SearchError, buildSearchParams, missingRequiredSearches, nextDay, parseSearchParams, parseSort, resolveRangeDefault, ymd,
} from '../../../src/shared/search.js';
import { merchant, small } from './docs.js';

describe('shared/search: server side', () => {
  it('accepts only the suffixes of the declared operator', () => {
    const m = merchant();
    expect(parseSearchParams(m, { merchantName: ' 饭 ', merchantNo_equal: 'SH1', status: 2 })).toEqual([
      { field: 'merchantName', op: 'contains', value: '饭' },
      { field: 'merchantNo', op: '=', value: 'SH1' },
      { field: 'status', op: '=', value: 2 },
    ]);
    // undeclared fields, wrong suffixes and reserved keys are dropped
    expect(parseSearchParams(m, { liaison: 'x', merchantName_equal: 'x', merchantNo_like: 'x', current: '1', size: '10', 'createTime_datege': '' })).toEqual([]);
    // injection attempts in key names never become conditions
    expect(parseSearchParams(m, { 'updatexml(1,concat(0x7e,user()))': '1', 'merchantName;drop': 'x' })).toEqual([]);
  });

  it('date ranges: _datege/_dategt/_datele/_datelt with a date or date time', () => {
    const m = merchant();
    expect(parseSearchParams(m, { createTime_datege: '2026-01-01 00:00:00', createTime_datelt: '2026-02-01' })).toEqual([
      { field: 'createTime', op: '>=', value: '2026-01-01 00:00:00' },
      { field: 'createTime', op: '<', value: '2026-02-01' },
    ]);
    expect(() => parseSearchParams(m, { createTime_datege: 'yesterday' })).toThrow(SearchError);
    // a day that is not in the calendar, or an impossible time, is a format error (the database would answer 500)
    expect(() => parseSearchParams(m, { createTime_datelt: '2026-02-30 00:00:00' })).toThrow(/createTime_datelt=2026-02-30/);
    expect(() => parseSearchParams(m, { createTime_datelt: '2026-02-28 24:00:00' })).toThrow(SearchError);
    expect(parseSearchParams(m, { createTime_datelt: '2024-02-29 23:59' })).toEqual([{ field: 'createTime', op: '<', value: '2024-02-29 23:59' }]);
    expect(parseSearchParams(m, { createTime: '2026-01-01' })).toEqual([]);
  });

  it('numbers are checked, long strings refused, the last of repeated values wins', () => {
    const d = small();
    expect(parseSearchParams(d, { count_ge: '3', count_lt: 10 })).toEqual([
      { field: 'count', op: '>=', value: 3 },
      { field: 'count', op: '<', value: 10 },
    ]);
    expect(() => parseSearchParams(d, { count_ge: 'abc' })).toThrow(SearchError);
    expect(() => parseSearchParams(d, { flag: '1.5' })).toThrow(SearchError);
    expect(() => parseSearchParams(d, { name: 'x'.repeat(201) })).toThrow(SearchError);
    expect(parseSearchParams(d, { name: ['a', 'b'] })).toEqual([{ field: 'name', op: 'contains', value: 'b' }]);
    expect(parseSearchParams(d, { day_likeright: '2026-01' })).toEqual([{ field: 'day', op: 'prefix', value: '2026-01' }]);
    expect(parseSearchParams(d, { name: { $ne: 1 } })).toEqual([]);
  });

  it('every operator has suffixes, and required searches are reported when missing', () => {
    for (const op of ['equal', 'contains', 'prefix', 'dateRange', 'range'] as const) expect(Object.keys(OP_SUFFIXES[op]).length).toBeGreaterThan(0);
    const d = small({ list: { ...small().list, search: [{ field: 'createTime', op: 'dateRange', required: 'small.msg.range' }] } });
    expect(missingRequiredSearches(d, []).map((s) => s.required)).toEqual(['small.msg.range']);
    expect(missingRequiredSearches(d, parseSearchParams(d, { createTime_datege: '2026-01-01' }))).toEqual([]);
  });
});

describe('shared/search: client side', () => {
  it('builds BladeX params; a date range includes its whole last day', () => {
    const d = small();
    expect(buildSearchParams(d, { name: ' ab ', flag: 2, count: [1, ''], createTime: ['2026-01-30', '2026-01-31 12:00:00'], day: '2026' })).toEqual({
      name: 'ab',
      flag_equal: '2',
      count_ge: '1',
      createTime_datege: '2026-01-30 00:00:00',
      createTime_datelt: '2026-02-01 00:00:00',
      day_likeright: '2026',
    });
    expect(buildSearchParams(d, { name: '', flag: null, createTime: ['2026-01-01'], count: 'x' })).toEqual({});
  });

  it('what the client builds, the server accepts', () => {
    const d = small();
    const params = buildSearchParams(d, { name: 'ab', flag: 2, count: [1, 5], createTime: ['2026-01-01', '2026-01-31'] });
    expect(parseSearchParams(d, params).map((c) => [c.field, c.op])).toEqual([
      ['name', 'contains'], ['flag', '='], ['count', '>='], ['count', '<='], ['createTime', '>='], ['createTime', '<'],
    ]);
  });

  it('calendar helpers', () => {
    expect(nextDay('2026-12-31')).toBe('2027-01-01');
    expect(nextDay('2028-02-28')).toBe('2028-02-29');
    expect(nextDay('2026-02-28 10:00:00')).toBe('2026-03-01');
    expect(ymd(new Date(2026, 0, 5))).toBe('2026-01-05');
    const now = new Date(2026, 10, 21, 15);
    expect(resolveRangeDefault('today', now)).toEqual(['2026-11-21', '2026-11-21']);
    expect(resolveRangeDefault('thisMonth', now)).toEqual(['2026-11-01', '2026-11-21']);
    expect(resolveRangeDefault(['2026-01-01', '2026-01-02'], now)).toEqual(['2026-01-01', '2026-01-02']);
    expect(resolveRangeDefault('lastYear', now)).toBeUndefined();
  });
});

describe('shared/search: sort', () => {
  it('only sortable columns, snake or camel case, else the default sort', () => {
    const m = merchant();
    expect(parseSort(m, 'merchant_name', 'create_time,feeRatio')).toEqual([
      { field: 'merchantName', dir: 'asc' },
      { field: 'createTime', dir: 'desc' },
      { field: 'feeRatio', dir: 'desc' },
    ]);
    expect(parseSort(m, 'liaison', 'login_psw;drop table')).toEqual([{ field: 'createTime', dir: 'desc' }]);
    expect(parseSort(m, undefined, undefined)).toEqual([{ field: 'createTime', dir: 'desc' }]);
  });
});
