import { useLayoutEffect, useRef, useState } from 'react';
import { NativeSelect } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { INTERFACE_LANGUAGES, knownInterfaceLanguage, type InterfaceLanguage, type UserInfo } from '@partner-portal/contracts';
import { saveUserLanguage } from '@/lib/session';
import { LANGUAGE_NAMES } from './language-names';
import { notifyError } from './notify';

/** The narrowest and widest the picker gets below 768 px, where the header shares a phone's width with the user menu. */
const NARROW = { min: 84, max: 160 };

/**
 * The signed-in header's language picker: the six interface languages, each named in itself; a
 * choice is shown at once and saved as the user's language (docs/decisions/012-user-languages.md).
 * From 768 px on it is 190 px wide with its icon; below, without the icon and as wide as the
 * chosen language's name needs (measured in the picker's own font), so "Nederlands" or "Português
 * (Brasil)" is read whole on a phone.
 */
export function LanguageChoice({ user }: { user: UserInfo }) {
  const { t, i18n } = useTranslation();
  const wide = useMediaQuery('(min-width: 48em)', true, { getInitialValueInEffect: false });
  const current = knownInterfaceLanguage(i18n.language);
  const select = useRef<HTMLSelectElement>(null);
  const [fitted, setFitted] = useState<number | null>(null);
  const name = LANGUAGE_NAMES[current];
  useLayoutEffect(() => {
    const element = select.current;
    const context = element ? document.createElement('canvas').getContext('2d') : null;
    if (!element || !context || wide) return;
    const style = getComputedStyle(element);
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight) + parseFloat(style.borderLeftWidth) * 2;
    setFitted(Math.min(NARROW.max, Math.max(NARROW.min, Math.ceil(context.measureText(name).width + room + 2))));
  }, [name, wide]);
  return (
    <NativeSelect
      ref={select}
      aria-label={t('interface_language')}
      size="xs"
      w={wide ? 190 : (fitted ?? 120)}
      leftSection={wide ? <IconLanguage size={14} aria-hidden /> : undefined}
      data={INTERFACE_LANGUAGES.map((code) => ({ value: code, label: LANGUAGE_NAMES[code] }))}
      value={current}
      onChange={(e) => {
        saveUserLanguage(user, e.currentTarget.value as InterfaceLanguage).catch(notifyError);
      }}
    />
  );
}
