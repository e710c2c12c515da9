import { describe, expect, it } from 'vitest';
import BpmnModdle from 'bpmn-moddle';
import flowable from '../../src/shared/flowable-moddle.json';
import {
  checkCondition,
  checkDuration,
  checkProcessId,
  checkUserExpression,
  elementWarnings,
  emptyDiagram,
  fieldsFor,
  flowMarkers,
  joinList,
  newProcessId,
  splitList,
} from '../../src/runtime/react/bpmn/properties.js';
import { flowLocale } from '../../src/runtime/react/bpmn/locale.js';
import merchantJson from '../../schemas/business/merchant.json';
import type { ScreenDocument } from '../../src/shared/document.js';
import { dialogModel } from '../../src/runtime/model/dialog.js';

const keysOf = (el: Parameters<typeof fieldsFor>[0]) => fieldsFor(el).map((f) => f.key);

describe('fieldsFor', () => {
  it('a user task edits its name, assignee, candidates, roles and form key, read from its attributes', () => {
    const fields = fieldsFor({ type: 'bpmn:UserTask', attrs: { name: '经理审批', 'flowable:assignee': '${applyUser}', candidateGroups: 'manager,hr' } });
    expect(fields.map((f) => f.key)).toEqual(['name', 'flowable:assignee', 'flowable:candidateUsers', 'flowable:candidateGroups', 'flowable:formKey']);
    expect(fields.map((f) => f.value)).toEqual(['经理审批', '${applyUser}', '', 'manager,hr', '']);
    expect(fields.find((f) => f.key === 'flowable:candidateGroups')!.kind).toBe('groups');
    expect(fields.find((f) => f.key === 'flowable:candidateUsers')!.kind).toBe('users');
  });
  it('a sequence flow takes a condition only when it leaves an exclusive gateway', () => {
    const gw = fieldsFor({ type: 'bpmn:SequenceFlow', attrs: { name: '>3 天', conditionExpression: { body: '${days > 3}' } }, sourceType: 'bpmn:ExclusiveGateway' });
    expect(gw.map((f) => [f.key, f.value])).toEqual([['name', '>3 天'], ['conditionExpression', '${days > 3}']]);
    expect(gw[1].check!('${days >}')).not.toBeNull();
    expect(keysOf({ type: 'bpmn:SequenceFlow', attrs: {}, sourceType: 'bpmn:UserTask' })).toEqual(['name']);
    expect(keysOf({ type: 'bpmn:SequenceFlow', attrs: {}, sourceType: 'bpmn:ParallelGateway' })).toEqual(['name']);
  });
  it('timer events take a duration; other events and elements only a name', () => {
    const timer = fieldsFor({ type: 'bpmn:BoundaryEvent', attrs: { timeDuration: 'PT48H' }, eventDefinitions: ['bpmn:TimerEventDefinition'] });
    expect(timer.map((f) => [f.key, f.value])).toEqual([['name', ''], ['timeDuration', 'PT48H']]);
    expect(keysOf({ type: 'bpmn:IntermediateCatchEvent', attrs: {}, eventDefinitions: ['bpmn:TimerEventDefinition'] })).toEqual(['name', 'timeDuration']);
    expect(keysOf({ type: 'bpmn:BoundaryEvent', attrs: {}, eventDefinitions: ['bpmn:MessageEventDefinition'] })).toEqual(['name']);
    expect(keysOf({ type: 'bpmn:ExclusiveGateway', attrs: {} })).toEqual(['name']);
    expect(keysOf({ type: 'bpmn:StartEvent', attrs: {} })).toEqual(['name']);
  });
  it('the process edits its key (checked as an NCName), name and starter roles', () => {
    const p = fieldsFor({ type: 'bpmn:Process', attrs: { id: 'leave', name: '请假', 'flowable:candidateStarterGroups': 'staff' } });
    expect(p.map((f) => [f.key, f.value])).toEqual([['id', 'leave'], ['name', '请假'], ['flowable:candidateStarterGroups', 'staff']]);
    expect(p[0].check!('1leave')).toBe('flowDesigner.error.processId');
  });
  it('every label, placeholder and message key exists in both languages', () => {
    const get = (o: unknown, key: string) => key.split('.').reduce<unknown>((a, k) => (a && typeof a === 'object' ? (a as Record<string, unknown>)[k] : undefined), o);
    const els = [
      { type: 'bpmn:Process', attrs: {} },
      { type: 'bpmn:UserTask', attrs: {} },
      { type: 'bpmn:SequenceFlow', attrs: {}, sourceType: 'bpmn:ExclusiveGateway' },
      { type: 'bpmn:BoundaryEvent', attrs: {}, eventDefinitions: ['bpmn:TimerEventDefinition'] },
    ];
    const keys = els.flatMap((el) => fieldsFor(el).flatMap((f) => [f.label, f.placeholder].filter(Boolean) as string[]));
    keys.push(
      ...['${', '${}', "${'a}", '${f(x)}', '${a[0]}', '${a = 1}', '${a #}', '${a &&}', '${(a}', '${a b}'].map((c) => checkCondition(c)!),
      checkDuration('')!, checkDuration('x')!, checkProcessId('')!, checkProcessId('1')!,
      ...elementWarnings({ type: 'bpmn:Task', attrs: {} }),
      ...elementWarnings({ type: 'bpmn:ServiceTask', attrs: {} }),
      ...elementWarnings({ type: 'bpmn:UserTask', attrs: {} }),
      ...elementWarnings({ type: 'bpmn:BoundaryEvent', attrs: {}, eventDefinitions: ['bpmn:MessageEventDefinition'] }),
      ...elementWarnings({ type: 'bpmn:SequenceFlow', attrs: { conditionLanguage: 'javascript' } }),
    );
    for (const key of keys) {
      expect(key.startsWith('flowDesigner.'), key).toBe(true);
      for (const lang of ['zh', 'en'] as const) expect(typeof get({ flowDesigner: flowLocale[lang] }, key), `${lang}:${key}`).toBe('string');
    }
  });
});

describe('checkCondition', () => {
  it('accepts empty conditions and expressions of the language', () => {
    for (const ok of [
      '',
      '   ',
      '${days > 3}',
      '${pass}',
      '${!pass}',
      '${ days >= 3 && days < 10 }',
      "${type == 'sick' || type == \"annual\"}",
      '${(a || b) && !(c != null)}',
      '${form.days <= 3}',
      '${approved == true}',
      '${amount > -1.5}',
      '${a == b == c}',
      '  ${x}  ',
    ]) {
      expect(checkCondition(ok), ok).toBeNull();
    }
  });
  it('refuses text outside ${ … } and what the language does not have', () => {
    expect(checkCondition('days > 3')).toBe('flowDesigner.error.conditionWrap');
    expect(checkCondition('${days > 3')).toBe('flowDesigner.error.conditionWrap');
    expect(checkCondition('${a} && ${b}')).toBe('flowDesigner.error.conditionWrap');
    expect(checkCondition('#{days > 3}')).toBe('flowDesigner.error.conditionWrap');
    expect(checkCondition('${ }')).toBe('flowDesigner.error.conditionEmpty');
    expect(checkCondition('${execution.getVariable("x")}')).toBe('flowDesigner.error.conditionCall');
    expect(checkCondition('${Math.max(a, b) > 3}')).toBe('flowDesigner.error.conditionCall');
    expect(checkCondition('${exit ()}')).toBe('flowDesigner.error.conditionCall');
    expect(checkCondition('${list[0] == 1}')).toBe('flowDesigner.error.conditionMember');
    expect(checkCondition('${a. b}')).toBe('flowDesigner.error.conditionMember');
    expect(checkCondition('${days = 3}')).toBe('flowDesigner.error.conditionAssign');
    expect(checkCondition("${name == 'x}")).toBe('flowDesigner.error.conditionString');
    expect(checkCondition('${a + 1 > 2}')).toBe('flowDesigner.error.conditionChar');
    expect(checkCondition('${a ? b : c}')).toBe('flowDesigner.error.conditionChar');
    expect(checkCondition('${a; b}')).toBe('flowDesigner.error.conditionChar');
    expect(checkCondition('${a &&}')).toBe('flowDesigner.error.conditionIncomplete');
    expect(checkCondition('${days >}')).toBe('flowDesigner.error.conditionIncomplete');
    expect(checkCondition('${(a && b}')).toBe('flowDesigner.error.conditionParen');
    expect(checkCondition('${a && b)}')).toBe('flowDesigner.error.conditionParen');
    expect(checkCondition('${()}')).toBe('flowDesigner.error.conditionParen');
    expect(checkCondition('${a b}')).toBe('flowDesigner.error.conditionSyntax');
    expect(checkCondition('${a and b}')).toBe('flowDesigner.error.conditionSyntax');
    expect(checkCondition('${&& a}')).toBe('flowDesigner.error.conditionSyntax');
    expect(checkCondition('${a > 3 3}')).toBe('flowDesigner.error.conditionSyntax');
  });
  it('an assignee is a plain id or one ${variable} expression', () => {
    expect(checkUserExpression('')).toBeNull();
    expect(checkUserExpression('1123598821738675201')).toBeNull();
    expect(checkUserExpression('${applyUser}')).toBeNull();
    expect(checkUserExpression('${applyUser')).toBe('flowDesigner.error.conditionWrap');
    expect(checkUserExpression('${getUser()}')).toBe('flowDesigner.error.conditionCall');
  });
});

describe('checkDuration', () => {
  it('accepts ISO-8601 days/hours/minutes/seconds and a ${variable}', () => {
    for (const ok of ['P2D', 'PT48H', 'PT30M', 'PT45S', 'P1DT12H', 'P1DT1H30M', ' PT1H ', '${escalateAfter}', '${ flow.leave.escalateAfter }']) expect(checkDuration(ok), ok).toBeNull();
  });
  it('refuses anything else', () => {
    expect(checkDuration('')).toBe('flowDesigner.error.durationRequired');
    for (const bad of ['P', 'PT', 'P1DT', '48H', 'PT48', 'P2W', 'P1Y', 'P1M2D', 'pt48h', 'P1.5D', 'PT-1H', '2 days', '${a > 1}', '${f()}', '${}', 'P2D PT1H']) {
      expect(checkDuration(bad), bad).toBe('flowDesigner.error.duration');
    }
  });
});

describe('checkProcessId', () => {
  it('is an XML NCName of at most 64 characters', () => {
    for (const ok of ['leave', 'Process_1', '_x', 'flow.leave-v2', 'a'.repeat(64)]) expect(checkProcessId(ok), ok).toBeNull();
    expect(checkProcessId('')).toBe('flowDesigner.error.processIdRequired');
    for (const bad of ['1leave', '-a', '.a', 'a b', 'a:b', '请假', 'a/b', 'a'.repeat(65), ' leave']) expect(checkProcessId(bad), bad).toBe('flowDesigner.error.processId');
  });
});

describe('element warnings', () => {
  it('names what the engine refuses', () => {
    expect(elementWarnings({ type: 'bpmn:UserTask', attrs: { 'flowable:assignee': 'admin' } })).toEqual([]);
    expect(elementWarnings({ type: 'bpmn:UserTask', attrs: { candidateGroups: 'hr' } })).toEqual([]);
    expect(elementWarnings({ type: 'bpmn:UserTask', attrs: {} })).toEqual(['flowDesigner.warn.nobody']);
    expect(elementWarnings({ type: 'bpmn:ScriptTask', attrs: {} })).toEqual(['flowDesigner.warn.unsupported']);
    expect(elementWarnings({ type: 'bpmn:ServiceTask', attrs: {} })).toEqual(['flowDesigner.warn.unsupported']);
    expect(elementWarnings({ type: 'bpmn:Task', attrs: {} })).toEqual(['flowDesigner.warn.plainTask']);
    expect(elementWarnings({ type: 'bpmn:EndEvent', attrs: {}, eventDefinitions: ['bpmn:TerminateEventDefinition'] })).toEqual([]);
    expect(elementWarnings({ type: 'bpmn:EndEvent', attrs: {}, eventDefinitions: ['bpmn:MessageEventDefinition'] })).toEqual(['flowDesigner.warn.unsupported']);
    expect(elementWarnings({ type: 'bpmn:StartEvent', attrs: {}, eventDefinitions: ['bpmn:TimerEventDefinition'] })).toEqual(['flowDesigner.warn.unsupported']);
    expect(elementWarnings({ type: 'bpmn:BoundaryEvent', attrs: {}, eventDefinitions: ['bpmn:TimerEventDefinition'] })).toEqual([]);
    expect(elementWarnings({ type: 'bpmn:SequenceFlow', attrs: { conditionLanguage: 'groovy' } })).toEqual(['flowDesigner.warn.scriptCondition']);
  });
});

describe('lists, markers, new models', () => {
  it('splits and joins comma lists', () => {
    expect(splitList(' manager, hr,,manager ')).toEqual(['manager', 'hr']);
    expect(joinList(['a', ' b ', 'a'])).toBe('a,b');
    expect(joinList([])).toBeUndefined();
  });
  it('marks done activities, current ones (also when current again) and the flows taken', () => {
    const m = flowMarkers([
      { historyActivityId: 'start', historyActivityType: 'startEvent', endTime: '2026-01-01 08:00:00' },
      { historyActivityId: 'Flow_1', historyActivityType: 'sequenceFlow', endTime: '2026-01-01 08:00:00' },
      { historyActivityId: 'approve', historyActivityType: 'userTask', endTime: null },
      { historyActivityId: 'apply', historyActivityType: 'userTask', endTime: null },
      { historyActivityId: 'apply', historyActivityType: 'userTask', endTime: '2026-01-01 09:00:00' },
    ]);
    expect(Object.fromEntries(m)).toEqual({ start: 'flow-success', Flow_1: 'flow-warning', approve: 'flow-primary', apply: 'flow-primary' });
    expect(flowMarkers(undefined).size).toBe(0);
  });
  it('an empty diagram is a readable executable process, start joined to end, with the flowable namespace', async () => {
    const id = newProcessId(() => 0.5);
    expect(id).toMatch(/^Process_[a-z0-9]{7}$/);
    expect(checkProcessId(id)).toBeNull();
    const xml = emptyDiagram(id, '请假 <"&">');
    expect(xml).toContain('xmlns:flowable="http://flowable.org/bpmn"');
    const moddle = new BpmnModdle({ flowable });
    const { rootElement, warnings } = await moddle.fromXML(xml, 'bpmn:Definitions');
    expect(warnings).toEqual([]);
    const root = rootElement as unknown as { rootElements: Array<Record<string, any>>; diagrams: Array<{ plane: { planeElement: unknown[]; bpmnElement: { id: string } } }> };
    const p = root.rootElements[0];
    expect(p.$type).toBe('bpmn:Process');
    expect(p.id).toBe(id);
    expect(p.name).toBe('请假 <"&">');
    expect(p.isExecutable).toBe(true);
    expect(p.flowElements.map((e: { $type: string }) => e.$type).sort()).toEqual(['bpmn:EndEvent', 'bpmn:SequenceFlow', 'bpmn:StartEvent']);
    const flow = p.flowElements.find((e: { $type: string }) => e.$type === 'bpmn:SequenceFlow');
    expect([flow.sourceRef.$type, flow.targetRef.$type]).toEqual(['bpmn:StartEvent', 'bpmn:EndEvent']);
    expect(root.diagrams[0].plane.bpmnElement.id).toBe(id);
    expect(root.diagrams[0].plane.planeElement).toHaveLength(3);
    expect(emptyDiagram('p', '')).not.toContain('name=');
  });
});

describe('the bpmn widget in a dialog', () => {
  it('takes the whole row and, unless the document says otherwise, a wide dialog', () => {
    const base = merchantJson as unknown as ScreenDocument;
    const doc = { ...base, dialog: { columns: 2 as const }, uiSchema: { ...base.uiSchema, merchantName: { 'ui:widget': 'bpmn', 'ui:options': { height: 400 } } } } as ScreenDocument;
    const m = dialogModel(doc, 'add', (k) => k);
    const ui = m.uiSchema.merchantName as { 'ui:widget': string; 'ui:options': { span: number; height: number } };
    expect(ui['ui:widget']).toBe('bpmn');
    expect(ui['ui:options']).toMatchObject({ span: 24, height: 400 });
    expect(m.width).toBe(1200);
    expect(dialogModel({ ...doc, dialog: { columns: 2, width: 900 } } as ScreenDocument, 'add', (k) => k).width).toBe(900);
    expect(dialogModel({ ...base, dialog: { columns: 2 } } as ScreenDocument, 'add', (k) => k).width).toBe(780);
  });
});
