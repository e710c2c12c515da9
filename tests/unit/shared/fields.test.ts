import { describe, expect, it } from 'vitest';
import {
  AUDIT_FIELDS, allProperties, builtinPermission, builtins, conditionHolds, conditionalFields, fieldOrder, fieldUi, isWriteOnly,
  listableProperties, looseEqual, modeBehaviour, sqlType, storedFields, toCamel, toSnake,
} from '../../../src/shared/fields.js';
import { merchant, small } from './docs.js';

describe('shared/fields', () => {
  it('converts between camelCase fields and snake_case columns', () => {
    expect(toSnake('releaseTime')).toBe('release_time');
    expect(toSnake('contractDaterange')).toBe('contract_daterange');
    expect(toSnake('id')).toBe('id');
    expect(toCamel('create_time')).toBe('createTime');
    expect(toCamel('x_2')).toBe('x2');
    for (const f of Object.keys(allProperties(merchant().schema))) expect(toCamel(toSnake(f))).toBe(f);
  });

  it('allProperties adds the fields of conditional branches', () => {
    const props = allProperties(merchant().schema);
    expect(props.enableTime).toMatchObject({ type: 'string', format: 'date-time' });
    expect(Object.keys(props)).toContain('merchantName');
  });

  it('conditionalFields: merchant enableTime exists (and is required) only when enableFlag is 3', () => {
    const c = conditionalFields(merchant().schema);
    expect(Object.keys(c)).toEqual(['enableTime']);
    expect(c.enableTime).toEqual({ when: { enableFlag: { const: 3 } }, negate: false, required: true });
    expect(conditionHolds(c.enableTime, { enableFlag: 3 })).toBe(true);
    expect(conditionHolds(c.enableTime, { enableFlag: '3' })).toBe(true);
    expect(conditionHolds(c.enableTime, { enableFlag: 1 })).toBe(false);
    expect(conditionHolds(c.enableTime, {})).toBe(false);
  });

  it('conditionHolds handles enum tests and else branches (negate)', () => {
    const cond = { when: { flag: { enum: [2, 3] } }, negate: false, required: false };
    expect(conditionHolds(cond, { flag: '2' })).toBe(true);
    expect(conditionHolds(cond, { flag: 1 })).toBe(false);
    expect(conditionHolds({ ...cond, negate: true }, { flag: 1 })).toBe(true);
  });

  it('a branch field that is also a base field is not conditional', () => {
    expect(conditionalFields(small().schema)).toEqual({});
  });

  it('looseEqual compares dictionary keys as text', () => {
    expect(looseEqual(1, '1')).toBe(true);
    expect(looseEqual('a', 'a')).toBe(true);
    expect(looseEqual(null, 'null')).toBe(false);
    expect(looseEqual(undefined, undefined)).toBe(true);
    expect(looseEqual(0, '')).toBe(false);
  });

  it('modeBehaviour: declared modes win, readOnly is readonly in add/edit, write-only is hidden in view', () => {
    const m = merchant();
    expect(modeBehaviour(m, 'merchantNo', 'add')).toBe('hidden');
    expect(modeBehaviour(m, 'merchantNo', 'edit')).toBe('readonly');
    expect(modeBehaviour(m, 'merchantNo', 'view')).toBe('show');
    expect(modeBehaviour(m, 'loginPsw', 'add')).toBe('show');
    expect(modeBehaviour(m, 'loginPsw', 'edit')).toBe('hidden');
    expect(modeBehaviour(m, 'merchantName', 'view')).toBe('show');
    expect(modeBehaviour(m, 'unknownField', 'edit')).toBe('show');
  });

  it('modeBehaviour hides x-password fields in view even without writeOnly', () => {
    expect(modeBehaviour(small(), 'secret', 'view')).toBe('hidden');
    expect(isWriteOnly({ 'x-password': true })).toBe(true);
    expect(isWriteOnly({ writeOnly: true })).toBe(true);
    expect(isWriteOnly({ type: 'string' })).toBe(false);
  });

  it('fieldUi ignores ui:order and absent entries', () => {
    const m = merchant();
    expect(fieldUi(m, 'ui:order')).toEqual({});
    expect(fieldUi(m, 'liaison')).toEqual({});
    expect(fieldUi(m, 'remarks')['ui:widget']).toBe('textarea');
  });

  it('fieldOrder: ui:order first (without * and unknown names), then the rest in declaration order', () => {
    const m = merchant();
    const order = fieldOrder(m);
    expect(order.slice(0, 3)).toEqual(['merchantNo', 'merchantName', 'licenseNo']);
    expect(new Set(order)).toEqual(new Set(Object.keys(allProperties(m.schema))));
    const d = small({ uiSchema: { 'ui:order': ['count', '*', 'nope'] } });
    expect(fieldOrder(d)).toEqual(['count', 'name', 'amount', 'flag', 'period', 'day', 'secret', 'total']);
  });

  it('storedFields leaves out virtual fields', () => {
    expect(storedFields(small()).map(([k]) => k)).not.toContain('total');
    expect(storedFields(small()).map(([k]) => k)).toContain('name');
  });

  it('sqlType derives PostgreSQL types', () => {
    expect(sqlType({ type: 'string', maxLength: 20 })).toBe('varchar(20)');
    expect(sqlType({ type: 'string', maxLength: 5000 })).toBe('text');
    expect(sqlType({ type: 'string' })).toBe('text');
    expect(sqlType({ type: 'string', format: 'date' })).toBe('date');
    expect(sqlType({ type: 'string', format: 'date-time' })).toBe('timestamp(0)');
    expect(sqlType({ type: 'integer' })).toBe('integer');
    expect(sqlType({ type: 'integer', maximum: 9999999999 })).toBe('bigint');
    expect(sqlType({ type: 'number' })).toBe('numeric(12,2)');
    expect(sqlType({ type: 'number', multipleOf: 0.001 })).toBe('numeric(12,3)');
    expect(sqlType({ type: 'number', multipleOf: 1 })).toBe('numeric(12,0)');
    expect(sqlType({ type: 'boolean' })).toBe('boolean');
    expect(sqlType({ type: 'array' })).toBe('jsonb');
    expect(sqlType({ type: 'object' })).toBe('jsonb');
    expect(sqlType({ type: 'string', 'x-password': true })).toBe('varchar(200)');
    expect(sqlType({ type: 'number', 'x-sqlType': 'numeric(5,2)' })).toBe('numeric(5,2)');
  });

  it('builtins and their permission codes', () => {
    const m = merchant();
    expect([...builtins(m)]).toEqual(['add', 'edit', 'view', 'delete', 'export']);
    expect(builtinPermission(m, 'add')).toBe('merchant_add');
    const ro = small({ list: { ...small().list, builtins: ['view'] } });
    expect([...builtins(ro)]).toEqual(['view']);
  });

  it('listableProperties: own fields plus audit fields, or only id when audit is off', () => {
    const m = merchant();
    expect(listableProperties(m).createTime).toBe(AUDIT_FIELDS.createTime);
    expect(listableProperties(m).merchantName).toBeDefined();
    const noAudit = small({ resource: { ...small().resource, audit: false } });
    expect(listableProperties(noAudit).createTime).toBeUndefined();
    expect(listableProperties(noAudit).id).toBe(AUDIT_FIELDS.id);
  });
});
