/**
 * Phone width: below antd's `md` breakpoint (768 px). Before the first measurement antd reports no breakpoint at
 * all; that is treated as wide, so a desktop never flashes the phone layout.
 */
export function isNarrow(screens: Partial<Record<'xs' | 'sm' | 'md' | 'lg' | 'xl' | 'xxl', boolean>>): boolean {
  return screens.md === false;
}
