/**
 * Writes orders.json: the floor page's 200 deterministic orders in the SpringBlade envelope (run once:
 * `npx tsx scripts/bench/floor/gen-orders.ts`; the file is committed). A seeded PRNG (mulberry32), no clock, so
 * every run writes the same bytes. Order numbers are unique: the harness identifies the 200th row by its number.
 */
import fs from 'node:fs';
import path from 'node:path';

function mulberry32(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const rnd = mulberry32(42);
const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
const SURNAMES = ['王', '李', '张', '刘', '陈', '杨', '赵', '黄', '周', '吴'];
const GIVEN = ['伟', '芳', '娜', '敏', '静', '磊', '强', '艳', '军', '涛'];
const MERCHANTS = ['一食堂自选餐', '二食堂面食', '三食堂小炒', '水果店', '咖啡吧', '超市'];
const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const time = (ms: number) => {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
};

const start = Date.UTC(2025, 0, 1);
const records = Array.from({ length: 200 }, (_, i) => {
  const created = start + Math.floor(rnd() * 180 * 86_400_000);
  const amount = Math.round((5 + rnd() * 45) * 100) / 100;
  const discount = rnd() < 0.3 ? Math.round(rnd() * 3 * 100) / 100 : 0;
  return {
    id: String(1_900_000_000_000_000_000n + BigInt(i + 1)),
    orderNo: `ORD2025${pad(i + 1, 6)}`,
    employeeName: pick(SURNAMES) + pick(GIVEN),
    merchantName: pick(MERCHANTS),
    amount,
    discountAmount: discount,
    payAmount: Math.round((amount - discount) * 100) / 100,
    status: 1 + Math.floor(rnd() * 5),
    orderType: 1 + Math.floor(rnd() * 3),
    payChannel: 1 + Math.floor(rnd() * 4),
    createTime: time(created),
    updateTime: time(created + Math.floor(rnd() * 3_600_000)),
    tenantId: '000000',
    remark: rnd() < 0.5 ? '' : pick(['少辣', '打包', '加饭', '补录', '退款复核']),
  };
});

const envelope = { code: 200, success: true, data: { records, total: 200, size: 200, current: 1, pages: 1 }, msg: '操作成功' };
fs.writeFileSync(path.join(import.meta.dirname, 'orders.json'), JSON.stringify(envelope));
console.log(`orders.json: ${records.length} rows`);
