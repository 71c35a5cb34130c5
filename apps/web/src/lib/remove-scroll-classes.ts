import { fullWidthClassName, zeroRightClassName } from 'react-remove-scroll-bar/constants';

/**
 * `RemoveScroll` of `react-remove-scroll` as Mantine's AppShell sections use it: only its class
 * names, which tell the Modal's scroll lock to keep a fixed header clear of the scroll bar. The
 * build gives the AppShell this module instead of the scroll lock itself (`mantineImportsNarrowed`
 * in vite.config.ts), which then loads with the first dialog
 * (docs/decisions/022-login-and-manage-bundles.md, "Fourth round").
 */
export const RemoveScroll = { classNames: { zeroRight: zeroRightClassName, fullWidth: fullWidthClassName } } as const;
