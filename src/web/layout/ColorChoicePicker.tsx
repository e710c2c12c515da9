/** antd's ColorPicker around the top bar's colour button (ColorChoice.tsx), in its own chunk. */
import type { ReactNode } from 'react';
import { ColorPicker } from 'antd';
import { useTranslation } from 'react-i18next';
import { setColor } from '../lib/settings.js';
import { PRESET_COLORS } from '../lib/themes.js';

export default function ColorChoicePicker({ color, open, onOpenChange, children }: { color: string; open: boolean; onOpenChange: (open: boolean) => void; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <ColorPicker
      size="small"
      value={color}
      disabledAlpha
      open={open}
      onOpenChange={onOpenChange}
      presets={[{ label: t('shell.top.colorPresets'), colors: PRESET_COLORS }]}
      onChangeComplete={(c) => setColor(c.toHexString().toUpperCase())}
    >
      {children}
    </ColorPicker>
  );
}
