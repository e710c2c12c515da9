/**
 * The whole menu tree (spec sections 2 and 7, lead's SEED.md). `code` is the permission code; category 1 =
 * menu, 2 = button; action 0 none, 1 toolbar, 2 row, 3 both. Plain data (built by small helpers): the schema
 * lint imports it to check permission codes, the server inserts missing codes at every start (seed/index.ts
 * syncMenus), so an entry added here reaches databases seeded before it, granted to administrator. Codes are
 * never renamed (a renamed code would be a new entry beside the old one).
 */
export interface SeedMenu {
  code: string;
  name: string;
  nameEn: string;
  path: string;
  /** Icon (antd icon name). */
  source: string;
  sort: number;
  category: 1 | 2;
  action: 0 | 1 | 2 | 3;
  isOpen: 1 | 2;
  alias: string;
  children: SeedMenu[];
}

type Btn = [suffixOrCode: string, name: string, nameEn: string, action?: 0 | 1 | 2 | 3];

const STD: Record<string, Btn> = {
  add: ['add', '新增', 'Add', 1],
  edit: ['edit', '修改', 'Edit', 2],
  delete: ['delete', '删除', 'Delete', 3],
  view: ['view', '查看', 'View', 2],
  export: ['export', '导出', 'Export', 1],
};

function button(code: string, alias: string, name: string, nameEn: string, action: 0 | 1 | 2 | 3, sort: number, path: string): SeedMenu {
  return { code, name, nameEn, path, source: '', sort, category: 2, action, isOpen: 1, alias, children: [] };
}

/**
 * A screen menu with buttons: `std` lists built-in verbs (`<code>_<verb>`), `extra` named buttons with their
 * full code [code, zh, en, action].
 */
function screen(code: string, name: string, nameEn: string, path: string, source: string, sort: number, std: string[], extra: Btn[] = [], api?: string): SeedMenu {
  const base = api ?? path;
  const buttons = [
    ...std.map((v, i) => button(`${code}_${v}`, v, STD[v][1], STD[v][2], STD[v][3] ?? 0, i + 1, `${base}/${v === 'add' || v === 'edit' ? 'submit' : v === 'delete' ? 'remove' : v}`)),
    ...extra.map(([c, zh, en, action], i) => button(c, c.replace(`${code}_`, ''), zh, en, action ?? 2, std.length + i + 1, base)),
  ];
  return { code, name, nameEn, path, source, sort, category: 1, action: 0, isOpen: 1, alias: 'menu', children: buttons };
}

function section(code: string, name: string, nameEn: string, path: string, source: string, sort: number, children: SeedMenu[]): SeedMenu {
  return { code, name, nameEn, path, source, sort, category: 1, action: 0, isOpen: 1, alias: 'menu', children };
}

const CRUD = ['add', 'edit', 'delete', 'view'];
const VIEW_EXPORT = ['view', 'export'];

export const SEED_MENUS: SeedMenu[] = [
  section('canteen', '食堂管理', 'Canteen', '/canteen', 'ShopOutlined', 1, [
    screen('merchant', '商家管理', 'Merchants', '/merchant/merchant', 'ShopOutlined', 1, ['add', 'edit', 'delete', 'view', 'export'], [
      ['merchant_reset_login_psw', '重置登录密码', 'Reset login password'],
      ['merchant_clear_pay_psw', '清空支付密码', 'Clear pay password'],
      ['merchant_unbind', '解绑', 'Unbind'],
    ], '/api/merchant'),
    screen('employee', '员工管理', 'Employees', '/employee/employee', 'IdcardOutlined', 2, VIEW_EXPORT, [
      ['employee_unbind', '解绑', 'Unbind'],
      ['employee_sync', '同步', 'Sync'],
      ['employee_import', '导入', 'Import', 1],
      ['employee_recharge', '充值', 'Recharge'],
    ], '/api/employee'),
    screen('order', '订单管理', 'Orders', '/order/order', 'ProfileOutlined', 3, VIEW_EXPORT, [['order_refund', '退款', 'Refund']], '/api/order'),
    screen('account_records', '账户流水', 'Account records', '/account/records', 'TransactionOutlined', 4, VIEW_EXPORT, [], '/api/account/records'),
    screen('order_statistics', '交易统计', 'Transaction statistics', '/statistic/orderStatistics', 'BarChartOutlined', 5, ['export'], [], '/api/statistic/orderStatistics'),
    screen('settlement', '结算管理', 'Settlements', '/settlement/settlement', 'AccountBookOutlined', 6, VIEW_EXPORT, [
      ['settlement_gen', '生成结算', 'Generate', 1],
      ['settlement_audit', '审核', 'Audit'],
      ['settlement_audit_batch', '批量审核', 'Audit selected', 1],
    ], '/api/settlement'),
    screen('banner', '轮播管理', 'Banners', '/banner/banner', 'PictureOutlined', 7, ['add', 'edit', 'delete', 'view', 'export'], [['banner_status', '上下线', 'Online/offline']], '/api/banner'),
    screen('wx_user', '微信用户', 'Messaging-app users', '/wxUser/wxUser', 'WechatOutlined', 8, ['edit', 'view', 'export'], [], '/api/blade-wxUser/wxUser'),
    screen('msg_center', '消息中心', 'Message center', '/msgCenter/msgCenter', 'MessageOutlined', 9, ['add', 'edit', 'delete', 'view', 'export'], [], '/api/msgCenter/msgCenter'),
  ]),
  section('desk', '工作台', 'Desk', '/desk', 'DesktopOutlined', 2, [
    screen('notice', '通知公告', 'Notices', '/desk/notice', 'NotificationOutlined', 1, CRUD),
  ]),
  section('system', '系统管理', 'System', '/system', 'SettingOutlined', 3, [
    screen('user', '用户管理', 'Users', '/system/user', 'UserOutlined', 1, CRUD, [
      ['user_reset', '重置密码', 'Reset password', 1],
      ['user_role', '角色配置', 'Assign roles', 1],
      ['user_unlock', '账号解封', 'Unlock', 1],
      ['user_platform', '平台配置', 'Platform settings', 1],
    ]),
    screen('dept', '机构管理', 'Departments', '/system/dept', 'ApartmentOutlined', 2, CRUD),
    screen('post', '岗位管理', 'Posts', '/system/post', 'SolutionOutlined', 3, CRUD),
    screen('dict', '系统字典', 'System dictionaries', '/system/dict', 'BookOutlined', 4, CRUD),
    screen('dictbiz', '业务字典', 'Business dictionaries', '/system/dictbiz', 'ReadOutlined', 5, CRUD),
    // the two dictionary layouts (spec §2) edit the system dictionaries: their buttons name that API
    screen('dict_horizontal', '字典管理(横)', 'Dictionaries (horizontal)', '/dict-horizontal/index', 'ColumnWidthOutlined', 6, CRUD, [], '/api/blade-system/dict'),
    screen('dict_vertical', '字典管理(纵)', 'Dictionaries (vertical)', '/dict-vertical/index', 'ColumnHeightOutlined', 7, CRUD, [], '/api/blade-system/dict'),
    screen('menu', '菜单管理', 'Menus', '/system/menu', 'MenuOutlined', 8, CRUD),
    screen('topmenu', '顶部菜单', 'Top menus', '/system/topmenu', 'AppstoreOutlined', 9, CRUD, [['menu_grant_top', '菜单配置', 'Assign menus', 1]]),
    screen('param', '参数管理', 'Parameters', '/system/param', 'ControlOutlined', 10, CRUD),
    screen('tenant', '租户管理', 'Tenants', '/system/tenant', 'TeamOutlined', 11, CRUD, [
      ['tenant_setting', '租户配置', 'Tenant settings', 1],
      ['tenant_datasource', '数据源配置', 'Data source', 1],
      ['tenant_package_setting', '产品包配置', 'Package settings', 1],
    ]),
    screen('tenant_package', '租户产品包', 'Tenant packages', '/system/tenantpackage', 'GiftOutlined', 12, ['add', 'edit', 'delete']),
    screen('client', '应用管理', 'Clients', '/system/client', 'KeyOutlined', 13, CRUD),
    // spec §7 Regions: list, lazy-tree (parentCode), detail (code), remove (id), submit
    screen('region', '行政区划', 'Regions', '/system/region', 'EnvironmentOutlined', 14, CRUD, [], '/api/blade-system/region'),
  ]),
  section('authority', '权限管理', 'Authority', '/authority', 'SafetyOutlined', 4, [
    screen('role', '角色管理', 'Roles', '/authority/role', 'UsergroupAddOutlined', 1, CRUD, [['role_grant', '权限设置', 'Grant', 1]]),
    screen('data_scope', '数据权限', 'Data scope', '/authority/datascope', 'FilterOutlined', 2, CRUD),
    screen('api_scope', '接口权限', 'API scope', '/authority/apiscope', 'ApiOutlined', 3, CRUD),
  ]),
  section('resource', '资源管理', 'Resources', '/resource', 'CloudOutlined', 5, [
    screen('oss', '对象存储', 'Object storage', '/resource/oss', 'CloudServerOutlined', 1, CRUD, [['oss_enable', '启用', 'Enable']]),
    screen('sms', '短信配置', 'SMS', '/resource/sms', 'MailOutlined', 2, CRUD, [
      ['sms_enable', '启用', 'Enable'],
      ['sms_send', '发送短信', 'Send a message'],
    ]),
    screen('attach', '附件管理', 'Attachments', '/resource/attach', 'PaperClipOutlined', 3, ['delete', 'view'], [
      ['attach_upload', '上传', 'Upload', 1],
      ['attach_download', '下载', 'Download'],
    ]),
  ]),
  section('monitor', '系统监控', 'Monitoring', '/monitor', 'DashboardOutlined', 6, [
    section('log', '日志管理', 'Logs', '/monitor/log', 'FileTextOutlined', 1, [
      screen('log_usual', '通用日志', 'Usual logs', '/monitor/log/usual', 'FileOutlined', 1, ['view']),
      screen('log_api', '接口日志', 'API logs', '/monitor/log/api', 'FileOutlined', 2, ['view']),
      screen('log_error', '错误日志', 'Error logs', '/monitor/log/error', 'FileExclamationOutlined', 3, ['view']),
    ]),
  ]),
  section('tool', '研发工具', 'Developer tools', '/tool', 'ToolOutlined', 7, [
    screen('code', '代码生成', 'Code generator', '/tool/code', 'CodeOutlined', 1, CRUD, [
      ['code_gen', '代码生成', 'Generate', 1],
      ['code_copy', '复制', 'Copy'],
    ]),
    screen('datasource', '数据源管理', 'Data sources', '/tool/datasource', 'DatabaseOutlined', 2, CRUD),
    screen('model', '数据模型', 'Data models', '/tool/model', 'BuildOutlined', 3, CRUD, [['model_prototype', '模型设计', 'Design fields']]),
  ]),
  section('report', '报表管理', 'Reports', '/report', 'PieChartOutlined', 8, [
    screen('report_list', '报表配置', 'Report list', '/report/reportlist', 'TableOutlined', 1, ['delete', 'view']),
  ]),
  section('flow', '流程管理', 'Workflow', '/flow', 'BranchesOutlined', 9, [
    screen('flow_model', '模型管理', 'Models', '/flow/model', 'PartitionOutlined', 1, CRUD, [['flow_deploy', '部署', 'Deploy']]),
    screen('flow_deployment', '部署管理', 'Deployments', '/flow/deploy', 'CloudUploadOutlined', 2, ['delete', 'view'], [['flow_deploy_upload', '上传部署', 'Upload and deploy', 1]]),
    screen('flow_manager', '流程管理', 'Processes', '/flow/manager', 'NodeIndexOutlined', 3, ['delete', 'view'], [['flow_state', '变更状态', 'Change state']]),
    screen('flow_follow', '流程跟踪', 'Tracking', '/flow/follow', 'AimOutlined', 4, ['delete', 'view']),
  ]),
  section('work', '我的事务', 'My work', '/work', 'ScheduleOutlined', 10, [
    screen('work_start', '发起事务', 'Start', '/work/start', 'PlayCircleOutlined', 1, [], [
      ['work_start_flow', '发起', 'Start'],
      ['work_start_image', '流程图', 'Diagram'],
    ]),
    screen('work_sign', '待签事务', 'To claim', '/work/claim', 'InboxOutlined', 2, ['view'], [['work_claim', '签收', 'Claim']]),
    screen('work_todo', '待办事务', 'To do', '/work/todo', 'CarryOutOutlined', 3, ['view'], [['work_handle', '办理', 'Handle']]),
    screen('work_send', '已发事务', 'Sent', '/work/send', 'SendOutlined', 4, ['view']),
    screen('work_done', '办结事务', 'Done', '/work/done', 'CheckCircleOutlined', 5, ['view']),
  ]),
  section('schedule', '任务调度', 'Scheduling', '/job', 'FieldTimeOutlined', 11, [
    screen('job', '任务管理', 'Jobs', '/job/job', 'ClockCircleOutlined', 1, CRUD, [
      ['job_run', '执行一次', 'Run now'],
      ['job_status', '启停', 'Start/stop'],
    ]),
    screen('job_log', '任务日志', 'Job logs', '/job/joblog', 'HistoryOutlined', 2, ['delete', 'view'], [['job_log_clean', '清空日志', 'Clean logs', 1]]),
  ]),
];

/** Every menu and button code of the seed (flattened). */
export function seedMenuCodes(nodes: SeedMenu[] = SEED_MENUS): string[] {
  return nodes.flatMap((n) => [n.code, ...seedMenuCodes(n.children)]);
}

/** Codes the `user` role gets: the canteen section read-only (menus, *_view, *_export). */
export function userRoleCodes(): string[] {
  const canteen = SEED_MENUS.find((m) => m.code === 'canteen')!;
  const out: string[] = [];
  const walk = (n: SeedMenu) => {
    if (n.category === 1 || n.code.endsWith('_view') || n.code.endsWith('_export')) out.push(n.code);
    n.children.forEach(walk);
  };
  walk(canteen);
  return out;
}
