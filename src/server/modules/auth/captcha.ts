/** A small SVG captcha (no native deps): 4 characters with jitter and noise lines, as a data URI. */
import { randomInt } from 'node:crypto';

const ALPHABET = 'abcdefhjkmnprstuvwxyz2345678';

export function captchaCode(len = 4): string {
  let s = '';
  for (let i = 0; i < len; i++) s += ALPHABET[randomInt(ALPHABET.length)];
  return s;
}

export function captchaSvg(code: string, width = 130, height = 48): string {
  const colors = ['#1f6feb', '#c62828', '#2e7d32', '#6a1b9a', '#ef6c00'];
  const parts: string[] = [];
  for (let i = 0; i < 5; i++) {
    parts.push(`<path d="M${randomInt(width)} ${randomInt(height)} Q${randomInt(width)} ${randomInt(height)} ${randomInt(width)} ${randomInt(height)}" stroke="${colors[randomInt(colors.length)]}" fill="none" stroke-width="1.5" opacity="0.6"/>`);
  }
  const step = width / (code.length + 1);
  [...code].forEach((ch, i) => {
    const x = Math.round(step * (i + 0.7));
    const y = 32 + randomInt(-5, 6);
    parts.push(`<text x="${x}" y="${y}" font-family="Verdana,sans-serif" font-size="${26 + randomInt(0, 6)}" fill="${colors[randomInt(colors.length)]}" transform="rotate(${randomInt(-25, 26)} ${x} ${y})">${ch}</text>`);
  });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><rect width="100%" height="100%" fill="#f5f7fa"/>${parts.join('')}</svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}
