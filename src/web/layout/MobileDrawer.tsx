/** The side menu of a phone (under 768 px): a drawer from the left, in its own chunk (Shell loads it on the first opening). */
import type { ReactNode } from 'react';
import { Drawer } from 'antd';

export default function MobileDrawer({ open, onClose, children }: { open: boolean; onClose: () => void; children: ReactNode }) {
  return (
    <Drawer
      placement="left"
      open={open}
      onClose={onClose}
      closable={false}
      size={230}
      styles={{ body: { padding: 0, background: 'var(--sider-bg)' } }}
      className="side-drawer"
    >
      {children}
    </Drawer>
  );
}
