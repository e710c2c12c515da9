import type { ReactNode } from 'react';
import {
  AccountBookOutlined, AimOutlined, ApartmentOutlined, ApiOutlined, AppstoreOutlined, BarChartOutlined, BellOutlined,
  BookOutlined, BranchesOutlined, BuildOutlined, CalendarOutlined, CarryOutOutlined, CheckCircleOutlined,
  ClockCircleOutlined, CloudDownloadOutlined, CloudOutlined, CloudServerOutlined, CloudUploadOutlined, CodeOutlined,
  ColumnHeightOutlined, ColumnWidthOutlined, ControlOutlined, CreditCardOutlined, DashboardOutlined,
  DatabaseOutlined, DesktopOutlined, EditOutlined, EnvironmentOutlined, FieldTimeOutlined, FileExclamationOutlined, FileOutlined,
  FileTextOutlined, FilterOutlined, FolderOutlined, FormOutlined, GiftOutlined, GlobalOutlined, HistoryOutlined,
  HomeOutlined, IdcardOutlined, InboxOutlined, KeyOutlined, LineChartOutlined, LockOutlined, MailOutlined,
  MenuOutlined, MessageOutlined, MoneyCollectOutlined, NodeIndexOutlined, NotificationOutlined, PaperClipOutlined,
  PartitionOutlined, PictureOutlined, PieChartOutlined, PlayCircleOutlined, ProfileOutlined, ReadOutlined,
  SafetyOutlined, ScheduleOutlined, SendOutlined, SettingOutlined, ShopOutlined, ShoppingCartOutlined,
  SolutionOutlined, TableOutlined, TeamOutlined, ToolOutlined, TransactionOutlined, UserOutlined,
  UsergroupAddOutlined, WalletOutlined, WechatOutlined,
} from '@ant-design/icons';

/**
 * The antd icons the app offers (menu entries, icon cells, the icon picker), by the name the server sends
 * (e.g. menu `source` "ShopOutlined"). Shared by the web shell's side menu and the runtime, so both draw the same
 * set; the picker (IconPicker.tsx) loads lazily and only lists these names.
 *
 * Menu icons by the name the server menu sends in `source` (antd icon names, e.g. "ShopOutlined").
 * A fixed whitelist, imported one by one: the whole icon library would add megabytes to the bundle. Names
 * outside it (other antd icons, iconfont class names of the old front end) get the caller's fallback.
 */
export const MENU_ICONS: Record<string, typeof AppstoreOutlined> = {
  AccountBookOutlined, AimOutlined, ApartmentOutlined, ApiOutlined, AppstoreOutlined, BarChartOutlined, BellOutlined,
  BookOutlined, BranchesOutlined, BuildOutlined, CalendarOutlined, CarryOutOutlined, CheckCircleOutlined,
  ClockCircleOutlined, CloudDownloadOutlined, CloudOutlined, CloudServerOutlined, CloudUploadOutlined, CodeOutlined,
  ColumnHeightOutlined, ColumnWidthOutlined, ControlOutlined, CreditCardOutlined, DashboardOutlined,
  DatabaseOutlined, DesktopOutlined, EditOutlined, EnvironmentOutlined, FieldTimeOutlined, FileExclamationOutlined, FileOutlined,
  FileTextOutlined, FilterOutlined, FolderOutlined, FormOutlined, GiftOutlined, GlobalOutlined, HistoryOutlined,
  HomeOutlined, IdcardOutlined, InboxOutlined, KeyOutlined, LineChartOutlined, LockOutlined, MailOutlined,
  MenuOutlined, MessageOutlined, MoneyCollectOutlined, NodeIndexOutlined, NotificationOutlined, PaperClipOutlined,
  PartitionOutlined, PictureOutlined, PieChartOutlined, PlayCircleOutlined, ProfileOutlined, ReadOutlined,
  SafetyOutlined, ScheduleOutlined, SendOutlined, SettingOutlined, ShopOutlined, ShoppingCartOutlined,
  SolutionOutlined, TableOutlined, TeamOutlined, ToolOutlined, TransactionOutlined, UserOutlined,
  UsergroupAddOutlined, WalletOutlined, WechatOutlined,
};

/** Names the icon picker offers, in alphabetical order. */
export const ICON_NAMES: string[] = Object.keys(MENU_ICONS).sort();

export function isIconName(name: unknown): name is string {
  return typeof name === 'string' && Object.hasOwn(MENU_ICONS, name);
}

/** The icon of a name, else the fallback (e.g. the name itself as text). */
export function IconByName({ name, fallback = null }: { name: string | undefined; fallback?: ReactNode }) {
  return <>{menuIcon(name, fallback)}</>;
}

/** The icon named by a menu entry's `source`, else `fallback`. */
export function menuIcon(source: string | undefined, fallback: ReactNode = null): ReactNode {
  const name = source?.trim() ?? '';
  const C = name && Object.hasOwn(MENU_ICONS, name) ? MENU_ICONS[name] : undefined;
  return C ? <C /> : fallback;
}
