/** antd's Image with its preview, for the image cell (ImageCell.tsx), in its own chunk. */
import { useState } from 'react';
import { Image } from 'antd';
import { THUMB } from './ImageCell.js';

export default function ImagePreview({ src, startOpen }: { src: string; startOpen: boolean }) {
  const [open, setOpen] = useState(startOpen);
  return <Image src={src} width={THUMB} height={THUMB} style={{ objectFit: 'cover' }} alt="" preview={{ open, onOpenChange: setOpen }} />;
}
