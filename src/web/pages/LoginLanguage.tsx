/**
 * The login page's language switch (中文 / English). antd's Dropdown brings the Menu and their styles (some 25 kB of
 * code) that the login page otherwise never shows: they load when the pointer reaches the button or it gets the
 * focus, and the menu opens as soon as they have if the pointer is still on the button (or it was clicked).
 */
import { useEffect, useRef, useState } from 'react';
import { Button } from 'antd';
import { GlobalOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { changeLanguage, type Lang } from '../i18n.js';
import { useOnDemand } from '../../runtime/react/onDemand.js';
import { loadOnce } from '../../shared/loadOnce.js';

const loadDropdown = loadOnce(() => import('antd/es/dropdown'));

export function LoginLanguage() {
  const { i18n } = useTranslation();
  const [wanted, setWanted] = useState(false);
  const [open, setOpen] = useState(false);
  const pointed = useRef(false);
  const Dropdown = useOnDemand(loadDropdown, wanted)?.default;
  useEffect(() => {
    if (Dropdown && pointed.current) setOpen(true);
  }, [Dropdown]);
  const button = (
    <Button
      type="text"
      icon={<GlobalOutlined />}
      data-testid="login-lang"
      onPointerEnter={() => {
        pointed.current = true;
        setWanted(true);
      }}
      onPointerLeave={() => {
        pointed.current = false;
      }}
      onFocus={() => setWanted(true)}
    >
      {i18n.language === 'en' ? 'English' : '中文'}
    </Button>
  );
  if (!Dropdown) return button;
  return (
    <Dropdown
      open={open}
      onOpenChange={setOpen}
      menu={{ items: [{ key: 'zh', label: '中文' }, { key: 'en', label: 'English' }], onClick: ({ key }) => void changeLanguage(key as Lang), selectedKeys: [i18n.language], selectable: true }}
    >
      {button}
    </Dropdown>
  );
}
