/**
 * Seed dictionaries (lead's SEED.md). System ones (biz: false) go to blade_dict, business ones to
 * blade_dict_biz (tenant 000000). Plain data: the schema lint imports this to check `x-dict` codes. A code
 * missing from the database is inserted at every start (seed/index.ts syncDictionaries), so a dictionary
 * added here reaches databases seeded before it; one that exists (even deleted) is left as administrators made it.
 */
export interface SeedDictionary {
  code: string;
  name: string;
  nameEn: string;
  biz: boolean;
  items: Array<{ key: string; value: string; valueEn: string; remark?: string }>;
}

/** Compact item notation: 'key:zh:en' or 'key:zh:en:remark'. */
function items(...list: string[]): SeedDictionary['items'] {
  return list.map((s) => {
    const [key, value, valueEn, remark] = s.split(':');
    return remark === undefined ? { key, value, valueEn } : { key, value, valueEn, remark };
  });
}

export const SEED_DICTIONARIES: SeedDictionary[] = [
  { code: 'sex', name: '性别', nameEn: 'Sex', biz: false, items: items('1:男:Male', '2:女:Female', '3:未知:Unknown') },
  { code: 'yes_no', name: '是否', nameEn: 'Yes/No', biz: false, items: items('1:否:No', '2:是:Yes') },
  { code: 'menu_category', name: '菜单类型', nameEn: 'Menu category', biz: false, items: items('1:菜单:Menu', '2:按钮:Button') },
  { code: 'button_func', name: '按钮功能', nameEn: 'Button position', biz: false, items: items('1:工具栏:Toolbar', '2:操作栏:Row', '3:工具操作栏:Both') },
  {
    code: 'notice', name: '通知类型', nameEn: 'Notice type', biz: false,
    items: items('1:发布通知:Release', '2:批转通知:Forward', '3:转发通知:Transmit', '4:指示通知:Instruction', '5:任免通知:Appointment', '6:事务通知:Affairs'),
  },
  {
    code: 'data_scope_type', name: '数据权限', nameEn: 'Data scope type', biz: false,
    items: items('1:全部可见:All', '2:本人可见:Own', '3:所在机构可见:Own dept', '4:所在机构及子级可见:Own dept and children', '5:自定义:Custom'),
  },
  { code: 'api_scope_type', name: '接口权限', nameEn: 'API scope type', biz: false, items: items('1:系统接口:System API', '2:业务接口:Business API') },
  { code: 'post_category', name: '岗位类型', nameEn: 'Post category', biz: false, items: items('1:高层:Senior', '2:中层:Middle', '3:基层:Junior', '4:其他:Other') },
  { code: 'org_category', name: '机构类型', nameEn: 'Organisation type', biz: false, items: items('1:公司:Company', '2:部门:Department', '3:小组:Team') },
  { code: 'job_status', name: '任务状态', nameEn: 'Job status', biz: false, items: items('1:运行中:Running', '2:已暂停:Paused') },
  { code: 'oss', name: '对象存储', nameEn: 'Object storage', biz: false, items: items('1:minio:MinIO', '2:七牛云:Qiniu', '3:阿里云:Aliyun', '4:腾讯云:Tencent', '5:本地:Local') },
  { code: 'sms', name: '短信服务', nameEn: 'SMS service', biz: false, items: items('1:云片:Yunpian', '2:七牛云:Qiniu', '3:阿里云:Aliyun', '4:腾讯云:Tencent') },
  // Process categories (deploy-upload `category`). The spec's flow routes are routeKey = code_dictKey
  // ("flow_1") → routeValue = the item's remark ("leave": /work/process/leave/...), as Saber builds them.
  { code: 'flow', name: '流程类型', nameEn: 'Process category', biz: false, items: items('1:请假流程:Leave:leave') },

  { code: 'merchant_status', name: '商家状态', nameEn: 'Merchant status', biz: true, items: items('1:营业中:Open', '2:暂停营业:Suspended', '3:已停业:Closed') },
  { code: 'merchant_enable_flag', name: '上架标识', nameEn: 'Listing', biz: true, items: items('1:立即上架:Online now', '2:暂不上架:Offline', '3:定时上架:Scheduled') },
  { code: 'employee_status', name: '员工状态', nameEn: 'Employee status', biz: true, items: items('1:正常:Active', '2:冻结:Frozen', '3:挂失:Lost', '4:注销:Cancelled') },
  {
    code: 'order_status', name: '订单状态', nameEn: 'Order status', biz: true,
    items: items('1:待支付:Unpaid', '2:已支付:Paid', '3:已关闭:Closed', '4:已退款:Refunded', '5:部分退款:Partly refunded'),
  },
  { code: 'order_type', name: '订单类型', nameEn: 'Order type', biz: true, items: items('1:消费:Payment', '2:退款:Refund', '3:充值:Recharge') },
  { code: 'account_type', name: '账户类型', nameEn: 'Account type', biz: true, items: items('1:商家:Merchant', '2:员工:Employee') },
  {
    code: 'account_records_type', name: '流水类型', nameEn: 'Record type', biz: true,
    items: items('1:充值:Recharge', '2:消费:Payment', '3:退款:Refund', '4:收款:Receipt', '5:退款支出:Refund paid out'),
  },
  { code: 'settlement_status', name: '结算状态', nameEn: 'Settlement status', biz: true, items: items('1:待审核:Pending', '2:已审核:Audited') },
  { code: 'banner_put_platform', name: '投放平台', nameEn: 'Platform', biz: true, items: items('1:员工端:Employee app', '2:商家端:Merchant app') },
  { code: 'banner_enable_flag', name: '上线标识', nameEn: 'Go-online', biz: true, items: items('1:立即上线:Online now', '2:定时上线:Scheduled') },
  { code: 'banner_status', name: '轮播状态', nameEn: 'Banner status', biz: true, items: items('1:待上线:Pending', '2:已上线:Online', '3:已下线:Offline') },
  { code: 'user_type', name: '用户类型', nameEn: 'User type', biz: true, items: items('1:员工:Employee', '2:商家:Merchant', '3:访客:Visitor') },
];
