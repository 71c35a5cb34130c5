import { useTranslation } from 'react-i18next';
import { Center, Loader, rem } from './plain';

/** A spinner for a page that is loading or submitting (Mantine's `Center` and `Loader`, components/plain.tsx). */
export function PageLoader({ minHeight = 200 }: { minHeight?: number | string }) {
  const { t } = useTranslation();
  return (
    <Center style={{ minHeight: typeof minHeight === 'number' ? rem(minHeight) : minHeight }} role="status" aria-live="polite">
      <Loader role="status" aria-label={t('loading')} />
    </Center>
  );
}
