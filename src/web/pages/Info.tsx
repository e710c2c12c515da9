import { useEffect, useState } from 'react';
import { Avatar, Button, Card, Form, Input, Tabs, Upload } from 'antd';
import { UploadOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { getData, request } from '../api/client.js';
import { md5 } from '../../shared/md5.js';
import { toast } from '../lib/toast.js';

interface UserForm {
  avatar?: string;
  realName?: string;
  name?: string;
  phone?: string;
  email?: string;
}

const AVATAR_TYPES = ['image/jpeg', 'image/png'];
export const AVATAR_MAX = 500 * 1024;

/** Phone rules of spec §5: non-empty, exactly 11 characters, then the format. */
export function phoneRule(t: TFunction) {
  return {
    validator: async (_: unknown, v: string | undefined) => {
      if (!v) throw new Error(t('common.msg.phoneEmpty'));
      if (v.length !== 11) throw new Error(t('common.msg.phoneLength'));
      if (!/^1[3-9]\d{9}$/.test(v)) throw new Error(t('common.msg.phoneFormat'));
    },
  };
}

function InfoTab() {
  const { t } = useTranslation();
  const [form] = Form.useForm<UserForm>();
  const avatar = Form.useWatch('avatar', form);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    getData<UserForm>('/api/blade-system/user/info').then((d) => form.setFieldsValue(d ?? {}), () => undefined);
  }, [form]);
  return (
    <Form form={form} layout="vertical" style={{ maxWidth: 520 }} data-testid="info-form"
      onFinish={async (v) => {
        setBusy(true);
        try {
          await request({ url: '/api/blade-system/user/update-info', method: 'POST', data: v });
          toast.success(t('common.msg.updated'));
        } catch {
          /* toast by client */
        } finally {
          setBusy(false);
        }
      }}
    >
      <Form.Item name="avatar" hidden>
        <Input />
      </Form.Item>
      <Form.Item label={t('info.avatar')}>
        <div className="avatar-field">
          <Avatar size={64} src={avatar || undefined} icon={<UserOutlined />} />
          <Upload
            accept=".jpg,.jpeg,.png"
            showUploadList={false}
            name="file"
            beforeUpload={(file) => {
              if (!AVATAR_TYPES.includes(file.type)) {
                toast.error(t('info.avatarType'));
                return Upload.LIST_IGNORE;
              }
              if (file.size > AVATAR_MAX) {
                toast.error(t('info.avatarSize'));
                return Upload.LIST_IGNORE;
              }
              return true;
            }}
            customRequest={async ({ file, onSuccess, onError }) => {
              const fd = new FormData();
              fd.append('file', file as Blob);
              try {
                const r = await request<{ data: { link: string } }>({ url: '/api/blade-resource/oss/endpoint/put-file', method: 'POST', data: fd });
                form.setFieldValue('avatar', r.data?.link);
                onSuccess?.(r);
              } catch (e) {
                onError?.(e as Error);
              }
            }}
          >
            <Button icon={<UploadOutlined />}>{t('info.avatarUpload')}</Button>
          </Upload>
          <div className="field-tip">{t('info.avatarTip')}</div>
        </div>
      </Form.Item>
      <Form.Item label={t('info.realName')} name="realName"><Input maxLength={20} /></Form.Item>
      <Form.Item label={t('info.name')} name="name"><Input maxLength={20} /></Form.Item>
      <Form.Item label={t('info.phone')} name="phone" rules={[phoneRule(t)]} validateTrigger="onBlur"><Input maxLength={11} data-testid="info-phone" /></Form.Item>
      <Form.Item label={t('info.email')} name="email" rules={[{ type: 'email', message: t('common.validation.format') }]} validateTrigger="onBlur"><Input /></Form.Item>
      <Button type="primary" htmlType="submit" loading={busy} data-testid="info-submit">{t('common.action.submit')}</Button>
    </Form>
  );
}

function PasswordTab() {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ oldPassword: string; newPassword: string; newPassword1: string }>();
  const [busy, setBusy] = useState(false);
  return (
    <Form form={form} layout="vertical" style={{ maxWidth: 520 }} data-testid="password-form"
      onFinish={async (v) => {
        setBusy(true);
        try {
          await request({
            url: '/api/blade-system/user/update-password',
            method: 'POST',
            params: { oldPassword: md5(v.oldPassword), newPassword: md5(v.newPassword), newPassword1: md5(v.newPassword1) },
          });
          toast.success(t('common.msg.updated'));
          form.resetFields();
        } catch {
          /* toast by client */
        } finally {
          setBusy(false);
        }
      }}
    >
      <Form.Item label={t('info.oldPassword')} name="oldPassword" rules={[{ required: true, message: t('info.oldPasswordRequired') }]}>
        <Input.Password data-testid="pw-old" />
      </Form.Item>
      <Form.Item label={t('info.newPassword')} name="newPassword" rules={[{ required: true, message: t('info.newPasswordRequired') }, { min: 6, max: 16, message: t('info.passwordLength') }]}>
        <Input.Password data-testid="pw-new" />
      </Form.Item>
      <Form.Item
        label={t('info.newPassword1')}
        name="newPassword1"
        dependencies={['newPassword']}
        rules={[
          { required: true, message: t('info.newPassword1Required') },
          ({ getFieldValue }) => ({ validator: async (_, v) => { if (v && v !== getFieldValue('newPassword')) throw new Error(t('info.passwordMismatch')); } }),
        ]}
      >
        <Input.Password data-testid="pw-new1" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={busy} data-testid="pw-submit">{t('common.action.submit')}</Button>
    </Form>
  );
}

/** Personal info (/info/index): two tabs, personal info and change password. */
export default function Info() {
  const { t } = useTranslation();
  return (
    <Card variant="borderless" data-testid="info-page">
      <Tabs items={[{ key: 'info', label: t('info.tabInfo'), children: <InfoTab /> }, { key: 'password', label: t('info.tabPassword'), children: <PasswordTab /> }]} />
    </Card>
  );
}
