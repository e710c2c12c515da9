import { useEffect, useMemo, useRef, useState } from 'react';
import type { InputRef } from 'antd';
import Input from 'antd/es/input/Input';
import { SearchOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { session } from '../auth/session.js';
import { filterMenu, menuLabel, opensNewWindow, routeOf, searchLeaves } from '../lib/menu.js';
import { ui } from './ui.js';

/** Menu search overlay: leaf entries whose names start with the typed text; Esc / click outside closes. */
export function SearchOverlay() {
  const open = ui.use((s) => s.searchOpen);
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const menu = session.use((s) => s.menu);
  const roles = session.use((s) => s.roles);
  const [text, setText] = useState('');
  const input = useRef<InputRef>(null);
  const results = useMemo(() => searchLeaves(filterMenu(menu ?? [], roles), text, i18n.language), [menu, roles, text, i18n.language]);

  useEffect(() => {
    if (!open) return;
    setText('');
    setTimeout(() => input.current?.focus(), 30);
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') ui.set({ searchOpen: false });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  if (!open) return null;
  return (
    <div className="search-overlay" data-testid="search-overlay" onMouseDown={(e) => e.target === e.currentTarget && ui.set({ searchOpen: false })}>
      <div className="search-box">
        <Input
          ref={input}
          size="large"
          prefix={<SearchOutlined />}
          placeholder={t('shell.search.placeholder')}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onPressEnter={() => results[0] && document.querySelector<HTMLElement>('.search-result')?.click()}
          data-testid="search-input"
        />
        <ul className="search-results">
          {results.map((n) => (
            <li
              key={n.id}
              className="search-result"
              onClick={() => {
                ui.set({ searchOpen: false });
                if (opensNewWindow(n)) window.open(n.path, '_blank');
                else navigate(routeOf(n));
              }}
            >
              <span className="search-result-name">{menuLabel(n, i18n.language)}</span>
              <span className="search-result-path">{n.path}</span>
            </li>
          ))}
          {text && !results.length && <li className="search-empty">{t('shell.search.empty')}</li>}
        </ul>
      </div>
    </div>
  );
}
