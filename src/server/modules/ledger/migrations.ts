/**
 * Ledger tables (module-managed: resource.managed = 'module' in the employee, order, account-records,
 * order-statistics and settlement documents). Money is numeric(12,2); every movement is written by
 * service.ts in one transaction. Check constraints are the last line of defence for the invariants:
 * a card balance never goes negative, a refund never exceeds what was paid.
 *
 * Column names are the snake_case of the document fields plus the audit columns of AUDIT_COLUMNS_SQL,
 * so the generic CRUD plugin reads these tables like document-managed ones. Ids come from one sequence
 * (canteen_ledger_id_seq, 19 digits like BladeX ids) so that set-based SQL (batch recharge, bulk seeding)
 * can insert without a round trip per id; ids are unique per table, which is all the wire needs.
 */
import { sql, type Transaction } from 'kysely';
import type { Migration } from '../../db/migrate.js';

async function exec(db: Transaction<any>, statements: string): Promise<void> {
  for (const s of statements.split(/;\s*\n/).map((x) => x.trim()).filter(Boolean)) await sql.raw(s).execute(db);
}

const AUDIT = `
  tenant_id varchar(12) not null default '000000',
  create_user bigint, create_dept bigint, create_time timestamp(0) not null default localtimestamp(0),
  update_user bigint, update_time timestamp(0) default localtimestamp(0),
  is_deleted integer not null default 0`;

export const LEDGER_MIGRATIONS: Migration[] = [
  {
    name: 'ledger_0001_tables',
    up: (db) =>
      exec(db, `
create sequence canteen_ledger_id_seq start with 1000000000000000001 cache 100;
create table canteen_employee (id bigint primary key default nextval('canteen_ledger_id_seq'), ${AUDIT},
  employee_name varchar(20) not null, card_no varchar(32) not null,
  balance numeric(12,2) not null default 0 constraint canteen_employee_balance_ck check (balance >= 0),
  phone varchar(11), wx_user_id varchar(64), idcard varchar(18), gender integer default 3, birthday date,
  address varchar(100), login_psw varchar(200), pay_psw varchar(200), psw_free integer not null default 1,
  details varchar(500), status integer not null default 1, remarks varchar(144));
create unique index canteen_employee_card_uq on canteen_employee (tenant_id, card_no) where is_deleted = 0;
create index canteen_employee_time_idx on canteen_employee (tenant_id, create_time desc) where is_deleted = 0;
create index canteen_employee_name_idx on canteen_employee (tenant_id, employee_name) where is_deleted = 0;

create table canteen_order (id bigint primary key default nextval('canteen_ledger_id_seq'), ${AUDIT},
  status integer not null, order_no varchar(32) not null, order_type integer not null, order_desc varchar(200),
  employee_id bigint, employee_name varchar(20), card_no varchar(32),
  merchant_id bigint, merchant_name varchar(20), merchant_no varchar(32),
  order_amount numeric(12,2) not null, pay_amount numeric(12,2) not null constraint canteen_order_pay_ck check (pay_amount > 0),
  refund_amount numeric(12,2) not null default 0, fee_ratio numeric(5,2),
  original_order_id bigint, original_order_no varchar(32), refund_order_no varchar(32), settlement_id bigint,
  details jsonb, remarks varchar(144),
  constraint canteen_order_refund_ck check (refund_amount >= 0 and refund_amount <= pay_amount));
create unique index canteen_order_no_uq on canteen_order (order_no);
create index canteen_order_time_idx on canteen_order (tenant_id, create_time desc) where is_deleted = 0;
create index canteen_order_merchant_name_idx on canteen_order (tenant_id, merchant_name, create_time desc) where is_deleted = 0;
create index canteen_order_employee_name_idx on canteen_order (tenant_id, employee_name, create_time desc) where is_deleted = 0;
create index canteen_order_status_idx on canteen_order (tenant_id, status, create_time desc) where is_deleted = 0;
create index canteen_order_type_idx on canteen_order (tenant_id, order_type, create_time desc) where is_deleted = 0;
create index canteen_order_merchant_idx on canteen_order (merchant_id, create_time) where is_deleted = 0;
create index canteen_order_employee_idx on canteen_order (employee_id);
create index canteen_order_original_idx on canteen_order (original_order_id) where original_order_id is not null;
create index canteen_order_settlement_idx on canteen_order (settlement_id) where settlement_id is not null;

create table canteen_account_records (id bigint primary key default nextval('canteen_ledger_id_seq'), ${AUDIT},
  status integer not null default 1, order_id bigint not null, order_no varchar(32) not null, records_desc varchar(200),
  account_type integer not null, account_id bigint not null, account_no varchar(32), account_name varchar(20),
  amount numeric(12,2) not null, balance_after numeric(12,2), records_type integer not null, remarks varchar(144));
create index canteen_account_records_time_idx on canteen_account_records (tenant_id, create_time desc) where is_deleted = 0;
create index canteen_account_records_name_idx on canteen_account_records (tenant_id, account_name, create_time desc) where is_deleted = 0;
create index canteen_account_records_type_idx on canteen_account_records (tenant_id, records_type, create_time desc) where is_deleted = 0;
create index canteen_account_records_account_idx on canteen_account_records (account_type, account_id);
create index canteen_account_records_order_idx on canteen_account_records (order_id);

create table canteen_settlement (id bigint primary key default nextval('canteen_ledger_id_seq'), ${AUDIT},
  merchant_id bigint not null, merchant_no varchar(32), merchant_name varchar(20), settlement_cycle varchar(6) not null,
  order_count integer not null default 0, paid_amount numeric(12,2) not null default 0, refund_amount numeric(12,2) not null default 0,
  amount numeric(12,2) not null default 0, fee_ratio numeric(5,2) not null default 0, fee_amount numeric(12,2) not null default 0,
  net_amount numeric(12,2) not null default 0, status integer not null default 1, audit_user bigint, audit_time timestamp(0),
  remarks varchar(144));
create unique index canteen_settlement_uq on canteen_settlement (tenant_id, merchant_id, settlement_cycle) where is_deleted = 0;
create index canteen_settlement_cycle_idx on canteen_settlement (tenant_id, settlement_cycle desc) where is_deleted = 0;

create table canteen_order_daily (tenant_id varchar(12) not null, day date not null, merchant_id bigint not null,
  paid_count integer not null default 0, paid_amount numeric(14,2) not null default 0,
  refund_count integer not null default 0, refund_amount numeric(14,2) not null default 0,
  primary key (tenant_id, day, merchant_id));

create view canteen_order_statistics as
select o.id, o.tenant_id, o.is_deleted, o.order_no, o.create_time, o.merchant_no as account_no, o.merchant_name as account_name,
  o.order_type, case o.order_type when 1 then '消费' else '退款' end as order_type_name, o.status,
  case o.order_type when 1 then o.card_no else o.merchant_no end as pay_account_no,
  case o.order_type when 1 then o.employee_name else o.merchant_name end as pay_account_name,
  o.pay_amount,
  case o.order_type when 1 then o.merchant_no else o.card_no end as receive_account_no,
  case o.order_type when 1 then o.merchant_name else o.employee_name end as receive_account_name,
  case o.order_type when 1 then o.pay_amount - round(o.pay_amount * coalesce(o.fee_ratio, 0) / 100, 2) else o.pay_amount end as receive_amount,
  o.fee_ratio,
  case when o.order_type = 1 and o.refund_amount > 0 then 2 when o.order_type = 2 then 2 else 1 end as refund,
  case o.order_type when 1 then o.refund_amount else o.pay_amount end as refund_amount,
  case o.order_type when 1 then o.refund_order_no else o.order_no end as refund_order_no
from canteen_order o where o.order_type in (1, 2)
`),
  },
  {
    // The daily rollup keeps the fee ratio of the orders it sums (one row per tenant, day, merchant and ratio),
    // so statistics compute fees with the ratio each order was paid at, not the merchant's current one.
    // Rebuilt from the orders, which it summarises exactly (tests/api/business invariants).
    name: 'ledger_0002_daily_fee_ratio',
    up: (db) =>
      exec(db, `
alter table canteen_order_daily add column fee_ratio numeric(5,2) not null default 0;
alter table canteen_order_daily drop constraint canteen_order_daily_pkey;
delete from canteen_order_daily;
insert into canteen_order_daily (tenant_id, day, merchant_id, fee_ratio, paid_count, paid_amount, refund_count, refund_amount)
select tenant_id, create_time::date, merchant_id, coalesce(fee_ratio, 0),
       count(*) filter (where order_type = 1), coalesce(sum(pay_amount) filter (where order_type = 1), 0),
       count(*) filter (where order_type = 2), coalesce(sum(pay_amount) filter (where order_type = 2), 0)
  from canteen_order where order_type in (1, 2) group by 1, 2, 3, 4;
alter table canteen_order_daily add primary key (tenant_id, day, merchant_id, fee_ratio)
`),
  },
  {
    // orderTypeName is the order_type dictionary's label in the reader's language (document x-dict: the
    // statistics list and every export turn the key into it), so the view holds the key, not a Chinese literal.
    name: 'ledger_0003_order_type_name_key',
    up: (db) =>
      exec(db, `
create or replace view canteen_order_statistics as
select o.id, o.tenant_id, o.is_deleted, o.order_no, o.create_time, o.merchant_no as account_no, o.merchant_name as account_name,
  o.order_type, o.order_type::text as order_type_name, o.status,
  case o.order_type when 1 then o.card_no else o.merchant_no end as pay_account_no,
  case o.order_type when 1 then o.employee_name else o.merchant_name end as pay_account_name,
  o.pay_amount,
  case o.order_type when 1 then o.merchant_no else o.card_no end as receive_account_no,
  case o.order_type when 1 then o.merchant_name else o.employee_name end as receive_account_name,
  case o.order_type when 1 then o.pay_amount - round(o.pay_amount * coalesce(o.fee_ratio, 0) / 100, 2) else o.pay_amount end as receive_amount,
  o.fee_ratio,
  case when o.order_type = 1 and o.refund_amount > 0 then 2 when o.order_type = 2 then 2 else 1 end as refund,
  case o.order_type when 1 then o.refund_amount else o.pay_amount end as refund_amount,
  case o.order_type when 1 then o.refund_order_no else o.order_no end as refund_order_no
from canteen_order o where o.order_type in (1, 2)
`),
  },
  {
    // Statistics over long ranges (issue 13: a year ≤ 60 ms at any times): a year of canteen_order_daily is
    // ~365 × merchants rows (~107k for 300 merchants), and summing them twice (per day for the series, per
    // merchant and ratio for the fees) was most of the time. Two coarser rollups of the daily one:
    //   canteen_order_day_total — one row per tenant and day (the series and the totals: ~365 rows a year),
    //   canteen_order_monthly   — one row per tenant, month, merchant and fee ratio (the fees of whole months).
    // Both are kept equal to sums of canteen_order_daily by triggers on it (insert/update/delete per row, and
    // truncate), so every writer of the daily rollup (service.ts addDaily, the demo bulk load, a rebuild)
    // keeps them exact without knowing about them. Rebuilt here from the daily rollup.
    name: 'ledger_0004_statistics_rollups',
    up: async (db) => {
      await exec(db, `
create table canteen_order_day_total (tenant_id varchar(12) not null, day date not null,
  paid_count integer not null default 0, paid_amount numeric(14,2) not null default 0,
  refund_count integer not null default 0, refund_amount numeric(14,2) not null default 0,
  primary key (tenant_id, day));
create table canteen_order_monthly (tenant_id varchar(12) not null, month date not null, merchant_id bigint not null,
  fee_ratio numeric(5,2) not null default 0,
  paid_count integer not null default 0, paid_amount numeric(14,2) not null default 0,
  refund_count integer not null default 0, refund_amount numeric(14,2) not null default 0,
  primary key (tenant_id, month, merchant_id, fee_ratio));
insert into canteen_order_day_total (tenant_id, day, paid_count, paid_amount, refund_count, refund_amount)
select tenant_id, day, sum(paid_count), sum(paid_amount), sum(refund_count), sum(refund_amount)
  from canteen_order_daily group by 1, 2;
insert into canteen_order_monthly (tenant_id, month, merchant_id, fee_ratio, paid_count, paid_amount, refund_count, refund_amount)
select tenant_id, date_trunc('month', day::timestamp)::date, merchant_id, fee_ratio, sum(paid_count), sum(paid_amount), sum(refund_count), sum(refund_amount)
  from canteen_order_daily group by 1, 2, 3, 4
`);
      // Function bodies hold ';' + newline, so each is one statement (not split by exec).
      await sql
        .raw(
          `create function canteen_order_rollup_add(t varchar, d date, m bigint, r numeric, pc integer, pa numeric, rc integer, ra numeric)
returns void language sql as $$
  insert into canteen_order_day_total as x (tenant_id, day, paid_count, paid_amount, refund_count, refund_amount)
  values (t, d, pc, pa, rc, ra)
  on conflict (tenant_id, day) do update set
    paid_count = x.paid_count + excluded.paid_count, paid_amount = x.paid_amount + excluded.paid_amount,
    refund_count = x.refund_count + excluded.refund_count, refund_amount = x.refund_amount + excluded.refund_amount;
  insert into canteen_order_monthly as x (tenant_id, month, merchant_id, fee_ratio, paid_count, paid_amount, refund_count, refund_amount)
  values (t, date_trunc('month', d::timestamp)::date, m, r, pc, pa, rc, ra)
  on conflict (tenant_id, month, merchant_id, fee_ratio) do update set
    paid_count = x.paid_count + excluded.paid_count, paid_amount = x.paid_amount + excluded.paid_amount,
    refund_count = x.refund_count + excluded.refund_count, refund_amount = x.refund_amount + excluded.refund_amount;
$$`,
        )
        .execute(db);
      await sql
        .raw(
          `create function canteen_order_daily_rollup() returns trigger language plpgsql as $$
begin
  if tg_op = 'TRUNCATE' then
    delete from canteen_order_day_total;
    delete from canteen_order_monthly;
    return null;
  end if;
  if tg_op = 'UPDATE' and (old.tenant_id, old.day, old.merchant_id, old.fee_ratio) = (new.tenant_id, new.day, new.merchant_id, new.fee_ratio) then
    perform canteen_order_rollup_add(new.tenant_id, new.day, new.merchant_id, new.fee_ratio, new.paid_count - old.paid_count,
      new.paid_amount - old.paid_amount, new.refund_count - old.refund_count, new.refund_amount - old.refund_amount);
    return null;
  end if;
  if tg_op in ('UPDATE', 'DELETE') then
    perform canteen_order_rollup_add(old.tenant_id, old.day, old.merchant_id, old.fee_ratio, -old.paid_count, -old.paid_amount,
      -old.refund_count, -old.refund_amount);
  end if;
  if tg_op in ('UPDATE', 'INSERT') then
    perform canteen_order_rollup_add(new.tenant_id, new.day, new.merchant_id, new.fee_ratio, new.paid_count, new.paid_amount,
      new.refund_count, new.refund_amount);
  end if;
  return null;
end
$$`,
        )
        .execute(db);
      await exec(db, `
create trigger canteen_order_daily_rollup after insert or update or delete on canteen_order_daily
  for each row execute function canteen_order_daily_rollup();
create trigger canteen_order_daily_rollup_truncate after truncate on canteen_order_daily
  for each statement execute function canteen_order_daily_rollup()
`);
    },
  },
];
