/**
 * The bench "floor": the plainest antd 6 page that does what our order list does (perf-anchors §2): 15 columns
 * (three dictionary columns rendered through a lookup map, an actions column with Edit + Popconfirm Delete), an
 * inline search form, a small bordered table paged on the client (10/20/50/100/200, initial size from `?size=`),
 * and an edit dialog (Modal + Form) mounted only when opened (the bench never opens it). Data: orders.json,
 * fetched at start-up. No router, no i18n, no state library: whatever our app costs above this is our overhead.
 */
import { useEffect, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { Button, DatePicker, Form, Input, InputNumber, Modal, Popconfirm, Select, Space, Table, type TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';

interface Order {
  id: string;
  orderNo: string;
  employeeName: string;
  merchantName: string;
  amount: number;
  discountAmount: number;
  payAmount: number;
  status: number;
  orderType: number;
  payChannel: number;
  createTime: string;
  updateTime: string;
  tenantId: string;
  remark: string;
}

interface Filters {
  merchantName?: string;
  status?: number;
  created?: [Dayjs, Dayjs] | null;
}

const STATUS: Record<number, string> = { 1: 'Unpaid', 2: 'Paid', 3: 'Refunding', 4: 'Refunded', 5: 'Closed' };
const ORDER_TYPE: Record<number, string> = { 1: 'Meal', 2: 'Top-up', 3: 'Refund' };
const PAY_CHANNEL: Record<number, string> = { 1: 'Card', 2: 'WeChat', 3: 'Alipay', 4: 'Cash' };
const SIZES = [10, 20, 50, 100, 200];
const dict = (map: Record<number, string>) => (v: number) => map[v] ?? v;

function initialSize(): number {
  const n = Number(new URLSearchParams(location.search).get('size'));
  return SIZES.includes(n) ? n : 10;
}

function EditDialog({ record, onClose }: { record: Order; onClose: () => void }) {
  const [form] = Form.useForm<Order>();
  return (
    <Modal open title={`Edit ${record.orderNo}`} onOk={() => form.submit()} onCancel={onClose}>
      <Form form={form} layout="vertical" initialValues={record} onFinish={onClose}>
        <Form.Item name="merchantName" label="Merchant" rules={[{ required: true, max: 20 }]}>
          <Input />
        </Form.Item>
        <Form.Item name="amount" label="Amount" rules={[{ required: true }]}>
          <InputNumber min={0} precision={2} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="status" label="Status">
          <Select options={Object.entries(STATUS).map(([value, label]) => ({ value: Number(value), label }))} />
        </Form.Item>
        <Form.Item name="remark" label="Remark">
          <Input.TextArea maxLength={144} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function App() {
  const [all, setAll] = useState<Order[]>([]);
  const [filters, setFilters] = useState<Filters>({});
  const [page, setPage] = useState({ current: 1, size: initialSize() });
  const [editing, setEditing] = useState<Order | null>(null);

  useEffect(() => {
    fetch('./orders.json')
      .then((r) => r.json())
      .then((env: { data: { records: Order[] } }) => setAll(env.data.records));
  }, []);

  const rows = useMemo(() => {
    const [from, to] = filters.created ?? [];
    return all.filter(
      (o) =>
        (!filters.merchantName || o.merchantName.includes(filters.merchantName)) &&
        (filters.status === undefined || o.status === filters.status) &&
        (!from || o.createTime >= from.format('YYYY-MM-DD 00:00:00')) &&
        (!to || o.createTime <= to.format('YYYY-MM-DD 23:59:59')),
    );
  }, [all, filters]);

  const columns = useMemo<TableColumnsType<Order>>(
    () => [
      { title: 'ID', dataIndex: 'id' },
      { title: 'Order no.', dataIndex: 'orderNo' },
      { title: 'Employee', dataIndex: 'employeeName' },
      { title: 'Merchant', dataIndex: 'merchantName' },
      { title: 'Amount', dataIndex: 'amount', align: 'right' },
      { title: 'Discount', dataIndex: 'discountAmount', align: 'right' },
      { title: 'Paid', dataIndex: 'payAmount', align: 'right' },
      { title: 'Status', dataIndex: 'status', render: dict(STATUS) },
      { title: 'Type', dataIndex: 'orderType', render: dict(ORDER_TYPE) },
      { title: 'Channel', dataIndex: 'payChannel', render: dict(PAY_CHANNEL) },
      { title: 'Created', dataIndex: 'createTime' },
      { title: 'Updated', dataIndex: 'updateTime' },
      { title: 'Tenant', dataIndex: 'tenantId' },
      { title: 'Remark', dataIndex: 'remark' },
      {
        title: 'Actions',
        key: 'actions',
        render: (_, r) => (
          <Space size="small">
            <a onClick={() => setEditing(r)}>Edit</a>
            <Popconfirm title="Delete this order?" onConfirm={() => setAll((xs) => xs.filter((x) => x.id !== r.id))}>
              <a>Delete</a>
            </Popconfirm>
          </Space>
        ),
      },
    ],
    [],
  );

  return (
    <div style={{ padding: 16 }}>
      <Form<Filters>
        layout="inline"
        style={{ marginBottom: 16 }}
        onFinish={(v) => {
          setFilters(v);
          setPage((p) => ({ ...p, current: 1 }));
        }}
      >
        <Form.Item name="merchantName" label="Merchant">
          <Input allowClear />
        </Form.Item>
        <Form.Item name="status" label="Status">
          <Select allowClear style={{ width: 140 }} options={Object.entries(STATUS).map(([value, label]) => ({ value: Number(value), label }))} />
        </Form.Item>
        <Form.Item name="created" label="Created">
          <DatePicker.RangePicker />
        </Form.Item>
        <Form.Item>
          <Space>
            <Button type="primary" htmlType="submit">
              Search
            </Button>
            <Button htmlType="reset">Reset</Button>
          </Space>
        </Form.Item>
      </Form>
      <Table<Order>
        size="small"
        bordered
        rowKey="id"
        scroll={{ x: 'max-content' }}
        columns={columns}
        dataSource={rows}
        pagination={{
          current: page.current,
          pageSize: page.size,
          pageSizeOptions: SIZES,
          showSizeChanger: true,
          total: rows.length,
          onChange: (current, size) => setPage((p) => ({ current: size !== p.size ? 1 : current, size })),
        }}
      />
      {editing && <EditDialog record={editing} onClose={() => setEditing(null)} />}
    </div>
  );
}

createRoot(document.getElementById('root')!).render(<App />);
