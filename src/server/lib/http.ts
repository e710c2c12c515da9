/**
 * The R envelope and errors (blade-contract §1). Handlers return `ok(data)`; they throw `HttpError` for
 * anything else. The app's error handler turns an HttpError into HTTP <status> + R {code, success:false, msg}
 * with msg in the request language (key looked up in locales/*.json, fallback text below).
 */
export interface R<T = unknown> {
  code: number;
  success: boolean;
  data: T;
  msg: string;
}

/** Server message keys with their zh/en fallback texts (the locale files may override them). */
export const SERVER_MESSAGES: Record<string, [zh: string, en: string]> = {
  'error.success': ['操作成功', 'Success'],
  'error.failure': ['操作失败', 'Operation failed'],
  'error.business': ['业务异常', 'Business error'],
  'error.badRequest': ['参数错误', 'Invalid parameters'],
  'error.unauthorized': ['请求未授权', 'Unauthorized request'],
  'error.forbidden': ['请求被拒绝', 'Request refused'],
  'error.notFound': ['404 没找到请求', '404 Not found'],
  'error.methodNotAllowed': ['不支持当前请求方法', 'Method not supported'],
  'error.mediaType': ['不支持当前媒体类型', 'Media type not supported'],
  'error.internal': ['服务器异常', 'Internal server error'],
  'error.noDatabase': ['服务器未连接数据库', 'The server has no database'],
  'error.recordNotFound': ['数据不存在或已删除', 'The record does not exist or was deleted'],
  'error.readOnlyApi': ['该页面只读,不允许修改', 'This screen is read-only'],
  'error.invalidIds': ['请选择要操作的数据', 'Select at least one record'],
  'error.search': ['查询条件格式不正确: {{detail}}', 'Invalid search condition: {{detail}}'],
  'error.searchRequired': ['请输入查询条件', 'A search condition is required'],
  'error.validation': ['表单校验未通过', 'The form has errors'],
  'error.badCredentials': ['用户名或密码错误', 'Wrong account or password'],
  'error.captcha': ['验证码不正确', 'Wrong captcha'],
  'error.tenantNotFound': ['租户ID未找到', 'Tenant not found'],
  'error.tenantExpired': ['租户授权已过期,请联系管理员', 'The tenant licence has expired, contact the administrator'],
  'error.sharedRecords': ['这些数据由平台统一管理,租户不能修改', 'These records are shared by every tenant: only the platform changes them'],
  'error.userDisabled': ['账号已停用,请联系管理员', 'This account is disabled, contact the administrator'],
  'error.userPending': ['账号待审核,请等待管理员分配角色', 'This account waits for an administrator to approve it'],
  'error.noRole': ['未获得用户的角色信息', 'The user has no role'],
  'error.locked': ['登录错误次数过多,请稍后再试', 'Too many failed logins, try again later'],
  'error.tokenExpired': ['令牌授权已过期', 'The token has expired'],
  'error.client': ['客户端认证失败', 'Client authentication failed'],
  'error.grantType': ['不支持的授权类型', 'Unsupported grant type'],
  'error.uploadMissing': ['请选择要上传的文件', 'Choose a file to upload'],
  'error.uploadType': ['不支持的文件类型', 'File type not allowed'],
  'error.uploadSize': ['文件大小不能超过{{size}}', 'The file must not exceed {{size}}'],
  'error.paramMissing': ['缺少必要的请求参数: {{name}}', 'Missing request parameter: {{name}}'],
  'error.nulByte': ['{{field}} 不能包含空字符(NUL)', '{{field}} must not contain a NUL character'],
  'error.dateRange': ['{{field}} 的日期超出范围,年份须在 0001 到 9999 之间', '{{field}}: the date is out of range, the year must be 0001 to 9999'],
  'error.idRange': ['{{field}} 不是有效的编号', '{{field}} is not a valid id'],
  'error.pageRange': ['{{field}} 超出范围', '{{field}} is out of range'],
  'error.reservedKey': ['{{field}} 含有不允许的键名', '{{field}} holds a key that is not allowed'],
  'error.badValue': ['数据超出范围或格式不正确', 'A value is out of range or malformed'],
  'error.uploadBroken': ['上传的数据不完整,请重新上传', 'The upload was incomplete, upload it again'],
  'error.uploadName': ['文件名不能包含控制字符', 'The file name must not contain control characters'],
  'error.secretUnreadable': ['保存的密钥无法用本服务器的密钥解密（CONFIG_SECRET_KEY 已更换？），请重新填写 SecretKey', 'The stored secret cannot be decrypted with this server key (was CONFIG_SECRET_KEY changed?); enter the SecretKey again'],
  'error.storageUnreachable': ['对象存储不可用：{{reason}}', 'The object storage cannot be reached: {{reason}}'],
  'error.tooManyRequests': ['请求过于频繁,请 {{seconds}} 秒后再试', 'Too many requests, try again in {{seconds}} s'],
  'error.dbUnavailable': ['数据库暂时不可用,请稍后再试', 'The database is unavailable, try again shortly'],
};

export class HttpError extends Error {
  constructor(
    public status: number,
    public key: string,
    public params: Record<string, unknown> = {},
    public data: unknown = null,
    /** Already-translated message (overrides key). */
    public text?: string,
  ) {
    super(text ?? key);
  }
}

export const fail = (key: string, params?: Record<string, unknown>, data?: unknown) => new HttpError(400, key, params, data);
export const unauthorized = () => new HttpError(401, 'error.unauthorized');
export const forbidden = () => new HttpError(403, 'error.forbidden');
export const notFound = (key = 'error.recordNotFound') => new HttpError(404, key);

export function ok<T>(data: T, msg = '操作成功'): R<T> {
  return { code: 200, success: true, data, msg };
}

/** R.status(true) of BladeX: success with no payload. */
export function okStatus(msg = '操作成功'): R<null> {
  return { code: 200, success: true, data: null, msg };
}
