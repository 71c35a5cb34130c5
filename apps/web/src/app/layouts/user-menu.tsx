import { cloneElement, useRef, useState, type RefObject } from 'react';
import { Button, Text } from '@mantine/core';
import { IconChevronDown, IconKey, IconLogout, IconUser, IconUsers } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { UserInfo } from '@partner-portal/contracts';
import { paths } from '@/lib/paths';
import { floating, useOnDemand } from '@/components/on-demand';

/**
 * The header's user dropdown (docs/product.md, "Screens"), opened and closed by click. Opened by the keyboard (Enter,
 * Space, ArrowDown), its first item takes focus, as a menu button should. Closed without a choice,
 * focus goes back to the button; a chosen item leads to another page, whose heading takes focus
 * (app/page-title.tsx), so the button does not take it back. Mantine's Menu loads when the button is
 * first pointed at, focused or touched (components/on-demand.ts); until then the button stands alone,
 * as it is while the menu is closed.
 */
export function UserMenu({ user }: { user: UserInfo }) {
  const { t } = useTranslation();
  const byKeyboard = useRef(false);
  const dropdown = useRef<HTMLDivElement>(null);
  const [chosen, setChosen] = useState(false);
  const { loaded, trigger, standIn } = useOnDemand(floating);
  const focusFirstItem = () => {
    if (!byKeyboard.current) return;
    byKeyboard.current = false;
    const started = performance.now();
    const attempt = () => {
      const first = dropdown.current?.querySelector<HTMLElement>('[role="menuitem"]');
      if (first) first.focus();
      else if (performance.now() - started < 1000) requestAnimationFrame(attempt);
    };
    requestAnimationFrame(attempt);
  };
  const button = (
    <Button
      ref={trigger as RefObject<HTMLButtonElement | null>}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ' || e.key === 'ArrowDown') byKeyboard.current = true;
      }}
      variant="subtle"
      color="dark"
      rightSection={<IconChevronDown size={16} aria-hidden />}
      aria-label={t('user_menu_label', { name: user.fullName })}
      // a name longer than two lines is cut off: its full text is the button's title (and in its name)
      title={user.fullName || user.email}
      h="auto"
      mih={36}
      styles={{ label: { whiteSpace: 'normal' } }}
    >
      <Text
        component="span"
        data-user-name
        fw={600}
        size="sm"
        lh={1.2}
        lineClamp={2}
        maw={{ base: 140, sm: 260 }}
        style={{ overflowWrap: 'anywhere' }}
      >
        {user.fullName || user.email}
      </Text>
    </Button>
  );
  if (!loaded) return cloneElement(button, { ...standIn, 'aria-haspopup': 'menu', 'aria-expanded': false });
  const { Menu } = loaded;
  return (
    <Menu
      position="bottom-end"
      width={240}
      shadow="md"
      withinPortal
      trigger="click"
      trapFocus={false}
      withInitialFocusPlaceholder={false}
      returnFocus={!chosen}
      onOpen={() => {
        setChosen(false);
        focusFirstItem();
      }}
    >
      <Menu.Target>{button}</Menu.Target>
      <Menu.Dropdown
        ref={dropdown}
        onClick={(e) => {
          if (e.target instanceof Element && e.target.closest('[role="menuitem"]')) setChosen(true);
        }}
      >
        <Menu.Label>{user.email}</Menu.Label>
        <Menu.Item component={Link} to={paths.profile} leftSection={<IconUser size={16} aria-hidden />}>
          {t('menu_profile')}
        </Menu.Item>
        {user.manageUsersOrOrganizations && user.organizationId && (
          <Menu.Item component={Link} to={paths.manageOrganization(user.organizationId)} leftSection={<IconUsers size={16} aria-hidden />}>
            {t('menu_user_management')}
          </Menu.Item>
        )}
        {!user.externalIdentityProvider && (
          <Menu.Item component={Link} to={paths.changePassword} leftSection={<IconKey size={16} aria-hidden />}>
            {t('menu_change_password')}
          </Menu.Item>
        )}
        <Menu.Divider />
        <Menu.Item component={Link} to={paths.logout} leftSection={<IconLogout size={16} aria-hidden />}>
          {t('menu_logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
