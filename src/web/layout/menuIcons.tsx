/** The menu's icons are the runtime's icon set (one list for the side menu, icon cells and the icon picker). */
export { MENU_ICONS, menuIcon, ICON_NAMES } from '../../runtime/react/icons.js';
