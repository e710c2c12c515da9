/**
 * The row actions that open something instead of calling (navigate: a page of the app; dialog: a registered
 * dialog) and the process form's addresses, from the work-list documents themselves.
 */
import { describe, expect, it } from 'vitest';
import type { ActionDef, ScreenDocument } from '../../../src/shared/document.js';
import todoJson from '../../../schemas/flow/work-todo.json';
import startJson from '../../../schemas/flow/work-start.json';
import { actionShownFor, actionsModel, dialogParams, navigateTarget, rowActions } from '../../../src/runtime/model/actions.js';
import { flowFormPage } from '../../../src/runtime/react/views/FlowFormView.js';

const todo = todoJson as unknown as ScreenDocument;
const start = startJson as unknown as ScreenDocument;
const action = (doc: ScreenDocument, name: string) => doc.list.actions!.find((a) => a.name === name) as ActionDef;
const task = { id: '11', taskId: '11', processInstanceId: '22', businessId: '33', formRoute: 'leave', processDefinitionId: 'Leave:2:44' };

describe('navigate actions', () => {
  it('fill the route from the row, encoding each part', () => {
    expect(navigateTarget(action(todo, 'handle').navigate!, task)).toBe('/work/process/leave/handle/11/22/33');
    expect(navigateTarget(action(start, 'start').navigate!, { ...task, id: 'Leave:2:44' })).toBe('/work/process/leave/form/Leave%3A2%3A44');
    expect(navigateTarget('/x/{a}', { a: 'a/b c' })).toBe('/x/a%2Fb%20c');
  });
  it('are hidden on a row lacking a part (a process category without a form route)', () => {
    expect(navigateTarget(action(todo, 'handle').navigate!, { ...task, formRoute: null })).toBeNull();
    expect(actionShownFor(action(todo, 'handle'), { ...task, businessId: '' })).toBe(false);
    const model = actionsModel(todo, { work_handle: true, work_todo_view: true });
    expect(rowActions(model, task).map((i) => (i.kind === 'action' ? i.action.name : i.kind))).toEqual(['handle', 'detail', 'diagram']);
    expect(rowActions(model, { ...task, formRoute: null }).map((i) => (i.kind === 'action' ? i.action.name : i.kind))).toEqual(['diagram']);
  });
  it('follow the button codes', () => {
    expect(actionsModel(todo, { work_todo_view: true }).row.map((i) => (i.kind === 'action' ? i.action.name : i.kind))).toEqual(['detail', 'diagram']);
  });
});

describe('dialog actions', () => {
  it('send each query parameter from its row field', () => {
    expect(dialogParams(action(todo, 'diagram'), task)).toEqual({ processInstanceId: '22' });
    expect(dialogParams(action(start, 'diagram'), task)).toEqual({ processDefinitionId: 'Leave:2:44' });
  });
});

describe('the process form addresses', () => {
  it('name the page and its ids', () => {
    expect(flowFormPage(['form', 'Leave:2:44'])).toEqual({ mode: 'form', processDefinitionId: 'Leave:2:44' });
    expect(flowFormPage(['handle', '11', '22', '33'])).toEqual({ mode: 'handle', taskId: '11', processInstanceId: '22', businessId: '33' });
    expect(flowFormPage(['detail', '22', '33'])).toEqual({ mode: 'detail', processInstanceId: '22', businessId: '33' });
  });
  it('refuse what they do not know', () => {
    for (const bad of [undefined, [], ['form'], ['form', ''], ['handle', '11', '22'], ['handle', 'x', '22', '33'], ['detail', '22'], ['edit', '1'], ['form', 'a', 'b']]) {
      expect(flowFormPage(bad as string[] | undefined), JSON.stringify(bad)).toBeNull();
    }
  });
});
