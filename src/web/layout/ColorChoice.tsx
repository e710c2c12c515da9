/**
 * The top bar's colour button (issue 13). antd's ColorPicker brings its panel, slider, segmented control and
 * number inputs (some 25 kB of code): it loads when the user reaches for the button (pointer, touch, focus); until
 * then the same button stands alone. A click before the picker arrived opens it once it has.
 */
import { useState } from 'react';
import { Button, Tooltip } from 'antd';
import { BgColorsOutlined } from '@ant-design/icons';
import { useOnDemand } from '../../runtime/react/onDemand.js';
import { loadOnce } from '../../shared/loadOnce.js';

const loadPicker = loadOnce(() => import('./ColorChoicePicker.js'));

export function ColorChoice({ color, title }: { color: string; title: string }) {
  const [wanted, setWanted] = useState(false);
  const [open, setOpen] = useState(false);
  const Picker = useOnDemand(loadPicker, wanted)?.default;
  const want = () => setWanted(true);
  const button = <Button type="text" className="tb-btn" icon={<BgColorsOutlined style={{ color }} />} />;
  return (
    <Tooltip title={title}>
      <span
        className="tb-color"
        data-testid="tb-color"
        onPointerEnter={want}
        onFocus={want}
        onClick={() => {
          if (Picker) return; // the picker handles its own clicks
          want();
          setOpen(true);
        }}
      >
        {Picker ? (
          <Picker color={color} open={open} onOpenChange={setOpen}>
            {button}
          </Picker>
        ) : (
          button
        )}
      </span>
    </Tooltip>
  );
}
