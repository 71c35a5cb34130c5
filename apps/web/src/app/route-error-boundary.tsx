import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Center, rem, Stack, Text, Title } from '@/components/plain';

interface Props {
  children: ReactNode;
  /** the error view gives way to the routes again when this changes (the visitor navigated) */
  resetKey: string;
}

/** Shown when a view fails to load or render (e.g. a new release replaced its chunk). */
export class RouteErrorBoundary extends Component<Props, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('view failed', error, info.componentStack);
  }

  override componentDidUpdate(previous: Props) {
    if (this.state.failed && previous.resetKey !== this.props.resetKey) this.setState({ failed: false });
  }

  override render() {
    return this.state.failed ? <RouteErrorView /> : this.props.children;
  }
}

/** Plain elements with Mantine's classes (components/plain.tsx): the boundary is in the entry, which carries no Mantine code. */
function RouteErrorView() {
  const { t } = useTranslation();
  return (
    <Center style={{ padding: 'var(--mantine-spacing-md)', minHeight: '100dvh' }} component="main">
      <Stack align="center" gap="md" style={{ textAlign: 'center', maxWidth: rem(480) }}>
        <Title order={1}>{t('something_went_wrong')}</Title>
        <Text>{t('error_try_again')}</Text>
        <Button onClick={() => window.location.reload()}>{t('reload_page')}</Button>
      </Stack>
    </Center>
  );
}
