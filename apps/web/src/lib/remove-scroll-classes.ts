import { fullWidthClassName, zeroRightClassName } from 'react-remove-scroll-bar/constants';

/**
 * The class names of `RemoveScroll` (`react-remove-scroll`) without the scroll lock itself: they tell
 * the Modal's scroll lock to keep the fixed header (app/layouts/app-layout.tsx) clear of the scroll
 * bar; the lock loads with the first dialog (docs/decisions/022-login-and-manage-bundles.md,
 * "Fourth round").
 */
export const RemoveScroll = { classNames: { zeroRight: zeroRightClassName, fullWidth: fullWidthClassName } } as const;
