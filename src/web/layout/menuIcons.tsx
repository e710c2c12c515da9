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

/** The icon named by a menu entry's `source`, else `fallback`. */
export function menuIcon(source: string | undefined, fallback: ReactNode = null): ReactNode {
  const name = source?.trim() ?? '';
  const C = name && Object.hasOwn(MENU_ICONS, name) ? MENU_ICONS[name] : undefined;
  return C ? <C /> : fallback;
}
