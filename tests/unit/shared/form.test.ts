import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { CUSTOM_FORMATS, cleanField, formSchema, isDate, isDateTime, messageKey, messageParams, pickEditable } from '../../../src/shared/form.js';
import { merchant, small } from './docs.js';

function validator(schema: object) {
  const ajv = new Ajv({ allErrors: true, strict: false });
  for (const [name, re] of Object.entries(CUSTOM_FORMATS)) ajv.addFormat(name, re);
  return ajv.compile(schema);
}

const validMerchant = {
  merchantName: '一号窗口', loginPhone: '13800138000', loginPsw: 'secret1', payPsw: '123456', feeRatio: 1.25,
  contractDaterange: ['2026-01-01', '2026-12-31'], enableFlag: 1,
};

describe('shared/form', () => {
  const fmt = (name: string, v: string) => {
    const f = CUSTOM_FORMATS[name];
    return typeof f === 'function' ? f(v) : f.test(v);
  };

  it('custom formats match the wire formats', () => {
    expect(fmt('date', '2026-02-28')).toBe(true);
    expect(fmt('date', '2026-13-01')).toBe(false);
    expect(fmt('date-time', '2026-02-28 23:59:59')).toBe(true);
    expect(fmt('date-time', '2026-02-28T23:59:59Z')).toBe(false);
    expect(fmt('yyyyMM', '202611')).toBe(true);
    expect(fmt('yyyyMM', '202613')).toBe(false);
    expect(fmt('uri', '/upload/a.png')).toBe(true);
  });

  it('dates are checked against the calendar, not only their shape (regression: 2026-02-30 was accepted)', () => {
    for (const bad of ['2026-02-30', '2026-02-29', '2100-02-29', '2026-04-31', '2026-06-31', '2026-00-10', '2026-01-00', '2026-1-05', '26-01-05', ' 2026-01-05'])
      expect([bad, isDate(bad), fmt('date', bad)]).toEqual([bad, false, false]);
    for (const good of ['2024-02-29', '2000-02-29', '2026-01-31', '2026-04-30', '2026-12-31']) expect([good, isDate(good)]).toEqual([good, true]);
    expect(isDateTime('2026-02-30 00:00:00')).toBe(false);
    expect(isDateTime('2026-02-28 24:00:00')).toBe(false);
    expect(isDateTime('2026-02-28 23:60:00')).toBe(false);
    expect(isDateTime('2026-02-28 23:59')).toBe(false);
    expect(isDateTime('2024-02-29 00:00:00')).toBe(true);
    expect(fmt('date-time', '2026-02-30 08:00:00')).toBe(false);
    // the same check through ajv (server) with the form schema: a merchant contract ending on 2026-02-30 is refused
    const validate = validator(formSchema(merchant(), 'add').schema);
    expect(validate({ ...validMerchant, contractDaterange: ['2026-01-01', '2026-02-30'] })).toBe(false);
    expect(validate.errors?.map((e) => e.keyword)).toContain('format');
    expect(validate({ ...validMerchant, enableFlag: 3, enableTime: '2026-02-30 08:00:00' })).toBe(false);
    expect(validate({ ...validMerchant, enableFlag: 3, enableTime: '2026-02-28 08:00:00' })).toBe(true);
  });

  it('cleanField strips x- annotations, also inside items', () => {
    expect(cleanField({ type: 'array', 'x-custom': 1, items: { type: 'string', 'x-dict': 'sex' } })).toEqual({ type: 'array', items: { type: 'string' } });
  });

  it('add mode: hidden fields dropped, passwords required, read-only fields never required', () => {
    const f = formSchema(merchant(), 'add');
    expect(f.schema.properties.merchantNo).toBeUndefined();
    expect(f.schema.properties.loginPsw).toMatchObject({ writeOnly: true });
    expect(f.schema.properties.loginPsw['x-password']).toBeUndefined();
    expect(f.schema.required).toEqual(['merchantName', 'loginPhone', 'loginPsw', 'payPsw', 'feeRatio', 'contractDaterange', 'enableFlag']);
    expect(f.readonly).toEqual([]); // every read-only merchant field is hidden when adding
    expect(f.order[0]).toBe('merchantName');
    expect(f.order).not.toContain('payCode');
  });

  it('edit mode: passwords are hidden and not required; view mode: everything read-only, write-only hidden', () => {
    const e = formSchema(merchant(), 'edit');
    expect(e.schema.properties.loginPsw).toBeUndefined();
    expect(e.schema.required).not.toContain('loginPsw');
    expect(e.schema.properties.merchantNo).toMatchObject({ readOnly: true });
    expect(e.readonly.sort()).toEqual(['bind', 'merchantNo', 'wxUserId']);
    const v = formSchema(merchant(), 'view');
    expect(v.schema.required).toEqual([]);
    expect(v.schema.properties.payPsw).toBeUndefined();
    expect(v.readonly).toContain('merchantName');
  });

  it('the form schema validates with ajv: enableTime required only when enableFlag is 3', () => {
    const validate = validator(formSchema(merchant(), 'add').schema);
    expect(validate(validMerchant)).toBe(true);
    expect(validate({ ...validMerchant, enableFlag: 3 })).toBe(false);
    expect(validate.errors?.map((e) => e.params)).toContainEqual({ missingProperty: 'enableTime' });
    expect(validate({ ...validMerchant, enableFlag: 3, enableTime: '2026-12-01 08:00:00' })).toBe(true);
    expect(validate({ ...validMerchant, loginPhone: '1380013800' })).toBe(false);
    expect(validate({ ...validMerchant, feeRatio: 100.5 })).toBe(false);
    expect(validate({ ...validMerchant, contractDaterange: ['2026-01-01'] })).toBe(false);
  });

  it('a conditional branch that only requires a base field is kept (regression)', () => {
    const f = formSchema(small(), 'add');
    expect(f.schema.allOf).toEqual([{ if: { properties: { flag: { const: 2 } }, required: ['flag'] }, then: { properties: {}, required: ['period'] } }]);
    const validate = validator(f.schema);
    expect(validate({ name: 'ab', flag: 2 })).toBe(false);
    expect(validate({ name: 'ab', flag: 2, period: ['2026-01-01', '2026-01-02'] })).toBe(true);
    expect(validate({ name: 'ab', flag: 1 })).toBe(true);
  });

  it('messageKey: the document message, else the common one', () => {
    const m = merchant();
    expect(messageKey(m, 'merchantName', 'required')).toBe('merchant.msg.merchantName');
    expect(messageKey(m, 'loginPhone', 'pattern')).toBe('common.msg.phoneFormat');
    expect(messageKey(m, 'licenseNo', 'maxLength')).toBe('common.validation.maxLength');
  });

  it('messageParams: the limit of the failed keyword (regression: minLength used to say maxLength)', () => {
    const d = small();
    expect(messageParams(d, 'name', 'minLength')).toMatchObject({ limit: 2, min: 2, max: 20, field: 'small.field.name' });
    expect(messageParams(d, 'name', 'maxLength')).toMatchObject({ limit: 20 });
    expect(messageParams(d, 'count', 'minimum')).toMatchObject({ limit: 1 });
    expect(messageParams(d, 'count')).toMatchObject({ limit: 999 });
    expect(messageParams(d, 'nope', 'required')).toMatchObject({ limit: undefined });
  });

  it('pickEditable drops unknown, hidden and read-only keys and reports cleared fields', () => {
    const m = merchant();
    const { values, cleared } = pickEditable(m, 'edit', { merchantName: 'x', merchantNo: 'SH1', loginPsw: 'p', hacker: 1, tel: '', remarks: null, enableTime: '2026-01-01 00:00:00' });
    expect(values).toEqual({ merchantName: 'x', enableTime: '2026-01-01 00:00:00' });
    expect(cleared.sort()).toEqual(['remarks', 'tel']);
    expect(pickEditable(m, 'add', { loginPsw: 'secret1', bind: 2 }).values).toEqual({ loginPsw: 'secret1' });
  });
});

describe('numeric strings (BladeX clients send dictionary keys as strings)', () => {
  it('are taken as numbers for number/integer fields only, and only when they are numbers', async () => {
    const { numericString } = await import('../../../src/shared/form.js');
    expect(numericString({ type: 'integer' }, '1')).toBe(1);
    expect(numericString({ type: 'number' }, ' 2.5 ')).toBe(2.5);
    expect(numericString({ type: 'number' }, '-3')).toBe(-3);
    expect(numericString({ type: 'integer' }, '1.5')).toBe(1.5);
    expect(numericString({ type: 'integer' }, '1e3')).toBe('1e3');
    expect(numericString({ type: 'integer' }, 'abc')).toBe('abc');
    expect(numericString({ type: 'string' }, '1')).toBe('1');
    expect(numericString(undefined, '1')).toBe('1');
  });
});
