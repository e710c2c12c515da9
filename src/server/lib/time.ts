/** Local time in the application time zone as 'yyyy-MM-dd HH:mm:ss' (the wire and storage format). */
const formatters = new Map<string, Intl.DateTimeFormat>();

function parts(tz: string, d: Date): Record<string, string> {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
    formatters.set(tz, f);
  }
  const out: Record<string, string> = {};
  for (const p of f.formatToParts(d)) out[p.type] = p.value;
  return out;
}

export function localDateTime(tz: string, d = new Date()): string {
  const p = parts(tz, d);
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}

/** yyyyMMdd in the application time zone. */
export function localDay(tz: string, d = new Date()): string {
  const p = parts(tz, d);
  return `${p.year}${p.month}${p.day}`;
}
