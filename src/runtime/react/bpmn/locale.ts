/**
 * The workflow designer's strings (`flowDesigner.*`), added to the app's i18next instance when a designer module
 * loads (they live here, not in locales/*.json, so the designer's chunk carries them). `bpmn` holds bpmn-js's own
 * English texts (palette, context pad, replace menu) keyed by the English text; English needs no entries there.
 */
import i18n from 'i18next';
import { useTranslation } from 'react-i18next';

const zh = {
  diagramTitle: '流程图展示',
  loading: '加载中…',
  loadError: '流程图加载失败',
  importError: '流程图无法读取',
  newDiagram: '新建空白流程',
  properties: '属性',
  process: '流程',
  selected: '所选元素',
  legendDone: '已完成',
  legendCurrent: '进行中',
  legendPath: '已走过的连线',
  field: {
    processKey: '流程标识',
    processName: '流程名称',
    starterGroups: '可发起角色',
    name: '名称',
    assignee: '办理人',
    candidateUsers: '候选人',
    candidateGroups: '候选角色',
    formKey: '表单标识',
    condition: '流转条件',
    timeDuration: '超时时长',
  },
  placeholder: {
    starterGroups: '不填则所有人可发起',
    assignee: '用户ID 或 ${applyUser}',
    candidateUsers: '输入用户ID后回车',
    candidateGroups: '选择角色',
    condition: '如 ${days > 3}，不填则总是流转',
    timeDuration: '如 PT48H、P2D 或 ${变量}',
  },
  type: {
    Process: '流程',
    StartEvent: '开始事件',
    EndEvent: '结束事件',
    UserTask: '用户任务',
    Task: '任务',
    ExclusiveGateway: '排他网关',
    ParallelGateway: '并行网关',
    SequenceFlow: '连线',
    BoundaryEvent: '边界事件',
    IntermediateCatchEvent: '中间事件',
    TextAnnotation: '注释',
    other: '元素',
  },
  warn: {
    plainTask: '引擎只执行用户任务：请用扳手图标把它改为用户任务',
    unsupported: '流程引擎不支持此类元素，部署时会被拒绝',
    nobody: '请填写办理人、候选人或候选角色，否则无人能办理',
    timerOnly: '只支持定时（超时）事件',
    scriptCondition: '条件不能带脚本语言（language）',
  },
  error: {
    conditionWrap: '表达式须写成 ${ … }',
    conditionEmpty: '${ } 中没有内容',
    conditionString: '字符串缺少结束引号',
    conditionCall: '不允许调用函数',
    conditionMember: '不允许访问属性或下标',
    conditionAssign: '比较请用 ==',
    conditionChar: '含有不允许的字符',
    conditionIncomplete: '表达式不完整',
    conditionParen: '括号不匹配',
    conditionSyntax: '表达式写法有误',
    durationRequired: '请填写时长',
    duration: '时长须为 P2D、PT48H、PT30M、P1DT12H 或 ${变量}',
    processIdRequired: '请填写流程标识',
    processId: '以字母或 _ 开头，只含字母、数字、_ . -，最多 64 位',
  },
  bpmn: {
    'Activate hand tool': '抓手工具',
    'Activate lasso tool': '套索工具',
    'Activate create/remove space tool': '创建/删除空间',
    'Activate global connect tool': '全局连线',
    'Create start event': '开始事件',
    'Create intermediate/boundary event': '中间/边界事件',
    'Create end event': '结束事件',
    'Create gateway': '网关',
    'Create task': '任务',
    'Create user task': '用户任务',
    'Create data object reference': '数据对象',
    'Create data store reference': '数据存储',
    'Create expanded sub-process': '子流程',
    'Create pool/participant': '泳池',
    'Create group': '分组',
    Delete: '删除',
    'Append end event': '追加结束事件',
    'Append gateway': '追加网关',
    'Append task': '追加任务',
    'Append user task': '追加用户任务',
    'Append intermediate/boundary event': '追加中间/边界事件',
    'Append timer intermediate catch event': '追加定时事件',
    'Add text annotation': '添加注释',
    'Change element': '更改类型',
    'Connect to other element': '连线到其他元素',
    'Connect using association': '关联连线',
    'Exclusive gateway': '排他网关',
    'Parallel gateway': '并行网关',
    'User task': '用户任务',
    Task: '任务',
    'Start event': '开始事件',
    'End event': '结束事件',
    'Terminate end event': '终止结束事件',
    'Timer intermediate catch event': '定时中间事件',
    'Timer boundary event': '定时边界事件',
    'Timer boundary event (non-interrupting)': '定时边界事件（不中断）',
    'Sequence flow': '连线',
    'Default flow': '默认连线',
    'Conditional flow': '条件连线',
    'Search in diagram': '在流程图中搜索',
  } as Record<string, string>,
};

type Strings = typeof zh;

const en: Strings = {
  diagramTitle: 'Process diagram',
  loading: 'Loading…',
  loadError: 'Could not load the diagram',
  importError: 'The diagram cannot be read',
  newDiagram: 'New empty process',
  properties: 'Properties',
  process: 'Process',
  selected: 'Selection',
  legendDone: 'Done',
  legendCurrent: 'Current',
  legendPath: 'Path taken',
  field: {
    processKey: 'Process key',
    processName: 'Process name',
    starterGroups: 'Starter roles',
    name: 'Name',
    assignee: 'Assignee',
    candidateUsers: 'Candidates',
    candidateGroups: 'Candidate roles',
    formKey: 'Form key',
    condition: 'Condition',
    timeDuration: 'Timeout',
  },
  placeholder: {
    starterGroups: 'Empty: anyone may start',
    assignee: 'User id or ${applyUser}',
    candidateUsers: 'Type a user id, Enter',
    candidateGroups: 'Choose roles',
    condition: 'e.g. ${days > 3}; empty: always',
    timeDuration: 'e.g. PT48H, P2D or ${var}',
  },
  type: {
    Process: 'Process',
    StartEvent: 'Start event',
    EndEvent: 'End event',
    UserTask: 'User task',
    Task: 'Task',
    ExclusiveGateway: 'Exclusive gateway',
    ParallelGateway: 'Parallel gateway',
    SequenceFlow: 'Sequence flow',
    BoundaryEvent: 'Boundary event',
    IntermediateCatchEvent: 'Catch event',
    TextAnnotation: 'Annotation',
    other: 'Element',
  },
  warn: {
    plainTask: 'Only user tasks run: use the wrench to make it a user task',
    unsupported: 'The engine does not run this element; deploying will fail',
    nobody: 'Give an assignee, candidates or roles, or nobody can take it',
    timerOnly: 'Only timer events are supported',
    scriptCondition: 'A condition cannot name a script language',
  },
  error: {
    conditionWrap: 'Write it as ${ … }',
    conditionEmpty: 'Nothing inside ${ }',
    conditionString: 'A string lacks its closing quote',
    conditionCall: 'Function calls are not allowed',
    conditionMember: 'Properties or indexes are not allowed',
    conditionAssign: 'Compare with ==',
    conditionChar: 'A character is not allowed',
    conditionIncomplete: 'The expression is incomplete',
    conditionParen: 'Unbalanced parentheses',
    conditionSyntax: 'The expression is malformed',
    durationRequired: 'Enter a duration',
    duration: 'Use P2D, PT48H, PT30M, P1DT12H or ${var}',
    processIdRequired: 'Enter the process key',
    processId: 'A letter or _, then letters, digits, _ . - (64 max)',
  },
  bpmn: {},
};

export const flowLocale = { zh, en };

let added = false;

/** Adds the strings to the app's i18next instance (idempotent; call when a designer module loads). */
export function addFlowLocale(): void {
  if (added) return;
  // before the app initialised i18next (a test importing a module) there is no store yet: added once it is
  if (!i18n.store) {
    i18n.on('initialized', addFlowLocale);
    return;
  }
  added = true;
  i18n.off('initialized', addFlowLocale);
  for (const [lang, strings] of Object.entries(flowLocale)) i18n.addResourceBundle(lang, 'translation', { flowDesigner: strings }, true, true);
}

/** bpmn-js's `translate` service: its English texts in the current language, `{name}` placeholders filled. */
export function translateBpmn(template: string, replacements?: Record<string, string>): string {
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const own = flowLocale[lang].bpmn[template] ?? template;
  return own.replace(/{([^}]+)}/g, (m, key: string) => replacements?.[key] ?? m);
}

/**
 * `t` for full keys (the ones properties.ts returns) and `ft` for keys under `flowDesigner.` (ft('field.name')).
 * The web shell's locale test reads literal `t('…')` keys against locales/*.json; ours live in this file.
 */
export function useFlowT(): { t: (key: string, params?: Record<string, unknown>) => string; ft: (key: string, params?: Record<string, unknown>) => string; lang: string } {
  const { t, i18n: inst } = useTranslation();
  const full = (key: string, params?: Record<string, unknown>) => String(t(key, params ?? {}));
  return { t: full, ft: (key, params) => full(`flowDesigner.${key}`, params), lang: inst.language };
}

addFlowLocale();
