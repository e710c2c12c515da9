import { lazy, Suspense, type CSSProperties, type LazyExoticComponent, type ReactNode } from 'react';
import AntdIcon from '@ant-design/icons/es/components/AntdIconLight';
import type { IconDefinition } from '@ant-design/icons-svg/es/types';

type IconProps = { className?: string; style?: CSSProperties };

/**
 * The antd icons the app offers (menu entries, icon cells, the icon picker), by the name the server sends
 * (e.g. menu `source` "ShopOutlined"). Shared by the web shell's side menu and the runtime, so both draw the same
 * set; the picker (IconPicker.tsx) loads lazily and only lists these names.
 *
 * A fixed whitelist: the whole icon library would add megabytes to the bundle. Each icon's drawing (its SVG
 * definition, drawn by antd's icon component as the named icon components do) is its own small chunk, loaded
 * when it is first drawn (issue 13), so a page loads the icons its menu names and no others. Names outside
 * the list (other antd icons, iconfont class names of the old front end) get the caller's fallback.
 */
export const MENU_ICONS: Record<string, () => Promise<{ default: IconDefinition }>> = {
  AccountBookOutlined: () => import('@ant-design/icons-svg/es/asn/AccountBookOutlined'),
  AimOutlined: () => import('@ant-design/icons-svg/es/asn/AimOutlined'),
  ApartmentOutlined: () => import('@ant-design/icons-svg/es/asn/ApartmentOutlined'),
  ApiOutlined: () => import('@ant-design/icons-svg/es/asn/ApiOutlined'),
  AppstoreOutlined: () => import('@ant-design/icons-svg/es/asn/AppstoreOutlined'),
  BarChartOutlined: () => import('@ant-design/icons-svg/es/asn/BarChartOutlined'),
  BellOutlined: () => import('@ant-design/icons-svg/es/asn/BellOutlined'),
  BookOutlined: () => import('@ant-design/icons-svg/es/asn/BookOutlined'),
  BranchesOutlined: () => import('@ant-design/icons-svg/es/asn/BranchesOutlined'),
  BuildOutlined: () => import('@ant-design/icons-svg/es/asn/BuildOutlined'),
  CalendarOutlined: () => import('@ant-design/icons-svg/es/asn/CalendarOutlined'),
  CarryOutOutlined: () => import('@ant-design/icons-svg/es/asn/CarryOutOutlined'),
  CheckCircleOutlined: () => import('@ant-design/icons-svg/es/asn/CheckCircleOutlined'),
  ClockCircleOutlined: () => import('@ant-design/icons-svg/es/asn/ClockCircleOutlined'),
  CloudDownloadOutlined: () => import('@ant-design/icons-svg/es/asn/CloudDownloadOutlined'),
  CloudOutlined: () => import('@ant-design/icons-svg/es/asn/CloudOutlined'),
  CloudServerOutlined: () => import('@ant-design/icons-svg/es/asn/CloudServerOutlined'),
  CloudUploadOutlined: () => import('@ant-design/icons-svg/es/asn/CloudUploadOutlined'),
  CodeOutlined: () => import('@ant-design/icons-svg/es/asn/CodeOutlined'),
  ColumnHeightOutlined: () => import('@ant-design/icons-svg/es/asn/ColumnHeightOutlined'),
  ColumnWidthOutlined: () => import('@ant-design/icons-svg/es/asn/ColumnWidthOutlined'),
  ControlOutlined: () => import('@ant-design/icons-svg/es/asn/ControlOutlined'),
  CreditCardOutlined: () => import('@ant-design/icons-svg/es/asn/CreditCardOutlined'),
  DashboardOutlined: () => import('@ant-design/icons-svg/es/asn/DashboardOutlined'),
  DatabaseOutlined: () => import('@ant-design/icons-svg/es/asn/DatabaseOutlined'),
  DesktopOutlined: () => import('@ant-design/icons-svg/es/asn/DesktopOutlined'),
  EditOutlined: () => import('@ant-design/icons-svg/es/asn/EditOutlined'),
  EnvironmentOutlined: () => import('@ant-design/icons-svg/es/asn/EnvironmentOutlined'),
  FieldTimeOutlined: () => import('@ant-design/icons-svg/es/asn/FieldTimeOutlined'),
  FileExclamationOutlined: () => import('@ant-design/icons-svg/es/asn/FileExclamationOutlined'),
  FileOutlined: () => import('@ant-design/icons-svg/es/asn/FileOutlined'),
  FileTextOutlined: () => import('@ant-design/icons-svg/es/asn/FileTextOutlined'),
  FilterOutlined: () => import('@ant-design/icons-svg/es/asn/FilterOutlined'),
  FolderOutlined: () => import('@ant-design/icons-svg/es/asn/FolderOutlined'),
  FormOutlined: () => import('@ant-design/icons-svg/es/asn/FormOutlined'),
  GiftOutlined: () => import('@ant-design/icons-svg/es/asn/GiftOutlined'),
  GlobalOutlined: () => import('@ant-design/icons-svg/es/asn/GlobalOutlined'),
  HistoryOutlined: () => import('@ant-design/icons-svg/es/asn/HistoryOutlined'),
  HomeOutlined: () => import('@ant-design/icons-svg/es/asn/HomeOutlined'),
  IdcardOutlined: () => import('@ant-design/icons-svg/es/asn/IdcardOutlined'),
  InboxOutlined: () => import('@ant-design/icons-svg/es/asn/InboxOutlined'),
  KeyOutlined: () => import('@ant-design/icons-svg/es/asn/KeyOutlined'),
  LineChartOutlined: () => import('@ant-design/icons-svg/es/asn/LineChartOutlined'),
  LockOutlined: () => import('@ant-design/icons-svg/es/asn/LockOutlined'),
  MailOutlined: () => import('@ant-design/icons-svg/es/asn/MailOutlined'),
  MenuOutlined: () => import('@ant-design/icons-svg/es/asn/MenuOutlined'),
  MessageOutlined: () => import('@ant-design/icons-svg/es/asn/MessageOutlined'),
  MoneyCollectOutlined: () => import('@ant-design/icons-svg/es/asn/MoneyCollectOutlined'),
  NodeIndexOutlined: () => import('@ant-design/icons-svg/es/asn/NodeIndexOutlined'),
  NotificationOutlined: () => import('@ant-design/icons-svg/es/asn/NotificationOutlined'),
  PaperClipOutlined: () => import('@ant-design/icons-svg/es/asn/PaperClipOutlined'),
  PartitionOutlined: () => import('@ant-design/icons-svg/es/asn/PartitionOutlined'),
  PictureOutlined: () => import('@ant-design/icons-svg/es/asn/PictureOutlined'),
  PieChartOutlined: () => import('@ant-design/icons-svg/es/asn/PieChartOutlined'),
  PlayCircleOutlined: () => import('@ant-design/icons-svg/es/asn/PlayCircleOutlined'),
  ProfileOutlined: () => import('@ant-design/icons-svg/es/asn/ProfileOutlined'),
  ReadOutlined: () => import('@ant-design/icons-svg/es/asn/ReadOutlined'),
  SafetyOutlined: () => import('@ant-design/icons-svg/es/asn/SafetyOutlined'),
  ScheduleOutlined: () => import('@ant-design/icons-svg/es/asn/ScheduleOutlined'),
  SendOutlined: () => import('@ant-design/icons-svg/es/asn/SendOutlined'),
  SettingOutlined: () => import('@ant-design/icons-svg/es/asn/SettingOutlined'),
  ShopOutlined: () => import('@ant-design/icons-svg/es/asn/ShopOutlined'),
  ShoppingCartOutlined: () => import('@ant-design/icons-svg/es/asn/ShoppingCartOutlined'),
  SolutionOutlined: () => import('@ant-design/icons-svg/es/asn/SolutionOutlined'),
  TableOutlined: () => import('@ant-design/icons-svg/es/asn/TableOutlined'),
  TeamOutlined: () => import('@ant-design/icons-svg/es/asn/TeamOutlined'),
  ToolOutlined: () => import('@ant-design/icons-svg/es/asn/ToolOutlined'),
  TransactionOutlined: () => import('@ant-design/icons-svg/es/asn/TransactionOutlined'),
  UserOutlined: () => import('@ant-design/icons-svg/es/asn/UserOutlined'),
  UsergroupAddOutlined: () => import('@ant-design/icons-svg/es/asn/UsergroupAddOutlined'),
  WalletOutlined: () => import('@ant-design/icons-svg/es/asn/WalletOutlined'),
  WechatOutlined: () => import('@ant-design/icons-svg/es/asn/WechatOutlined'),
};

/** Names the icon picker offers, in alphabetical order. */
export const ICON_NAMES: string[] = Object.keys(MENU_ICONS).sort();

export function isIconName(name: unknown): name is string {
  return typeof name === 'string' && Object.hasOwn(MENU_ICONS, name);
}

const components = new Map<string, LazyExoticComponent<(p: IconProps) => ReactNode>>();
function lazyIcon(name: string): LazyExoticComponent<(p: IconProps) => ReactNode> {
  let c = components.get(name);
  if (!c) {
    c = lazy(() => MENU_ICONS[name]().then((m) => ({ default: (p: IconProps) => <AntdIcon {...p} icon={m.default} /> })));
    components.set(name, c);
  }
  return c;
}

/**
 * While an icon's chunk loads, its box (1em square, like antd's `.anticon`) is kept, so the label beside it does
 * not move. It has no `anticon` class: it is not the icon yet.
 */
function IconBox({ className, style }: { className?: string; style?: CSSProperties }) {
  return <span aria-hidden className={className} style={{ display: 'inline-flex', width: '1em', height: '1em', verticalAlign: '-0.125em', ...style }} />;
}

/**
 * The icon of a name (loaded on first use), else the fallback (e.g. the name itself as text). `className` and
 * `style` reach the icon (antd's Menu gives its item icons a class).
 */
export function IconByName({ name, fallback = null, className, style }: { name: string | undefined; fallback?: ReactNode; className?: string; style?: CSSProperties }) {
  const key = name?.trim() ?? '';
  if (!isIconName(key)) return <>{fallback}</>;
  const C = lazyIcon(key);
  return (
    <Suspense fallback={<IconBox className={className} style={style} />}>
      <C className={className} style={style} />
    </Suspense>
  );
}

/** The icon named by a menu entry's `source`, else `fallback`. */
export function menuIcon(source: string | undefined, fallback: ReactNode = null): ReactNode {
  const name = source?.trim() ?? '';
  return isIconName(name) ? <IconByName name={name} /> : fallback;
}
