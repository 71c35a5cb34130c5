import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A spinner for a page that is loading or submitting. */
export function PageLoader({ minHeight = 200 }: { minHeight?: number | string }) {
  const { t } = useTranslation();
  return (
    <Center mih={minHeight} role="status" aria-live="polite">
      <Loader role="status" aria-label={t('loading')} />
    </Center>
  );
}
