import { useTranslation } from 'react-i18next';
import { Group, rem } from './plain';

/** The portal's logo: the mark plus the product name in the interface language (Mantine's `Group` and `Text`, components/plain.tsx). */
export function Logo({ size = 32, withText = true, inverted = false }: { size?: number; withText?: boolean; inverted?: boolean }) {
  const { t } = useTranslation();
  return (
    <Group gap={10} wrap="nowrap">
      <img src="/logo.svg" width={size} height={size} alt="" aria-hidden="true" />
      {withText && (
        <span
          style={{
            letterSpacing: '-0.01em',
            whiteSpace: 'nowrap',
            color: inverted ? 'var(--mantine-color-white)' : 'var(--mantine-color-brand-9)',
            fontSize: rem(size * 0.6),
            fontWeight: 700,
          }}
          className="mantine-focus-auto m_b6d8b162 mantine-Text-root"
        >
          {t('product_name')}
        </span>
      )}
    </Group>
  );
}
