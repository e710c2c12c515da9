/**
 * The image cell (issue 13): a plain thumbnail at first paint, antd's Image (its preview, about 15 kB of code)
 * only when the user reaches for one. The stand-in has the Image's box (40 × 40, same img styles), so nothing
 * moves when it is replaced; a click before the code arrived opens the preview once it has.
 */
import { useState } from 'react';
import type { CellProps } from '../registry.js';
import { useOnDemand } from '../onDemand.js';
import { loadOnce } from '../../../shared/loadOnce.js';

export const THUMB = 40;

const loadPreview = loadOnce(() => import('./ImagePreview.js'));

export default function ImageCell({ value }: CellProps) {
  const src = String(value);
  const [wanted, setWanted] = useState(false);
  const [clicked, setClicked] = useState(false);
  const Preview = useOnDemand(loadPreview, wanted)?.default;
  if (Preview) return <Preview src={src} startOpen={clicked} />;
  const want = () => setWanted(true);
  return (
    <div
      role="button"
      tabIndex={0}
      style={{ position: 'relative', display: 'inline-block', width: THUMB, height: THUMB }}
      onPointerEnter={want}
      onFocus={want}
      onClick={() => {
        want();
        setClicked(true);
      }}
    >
      <img src={src} alt="" width={THUMB} height={THUMB} style={{ width: '100%', height: THUMB, objectFit: 'cover', verticalAlign: 'middle' }} />
    </div>
  );
}
