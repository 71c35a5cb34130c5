import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

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

function RouteErrorView() {
  const { t } = useTranslation();
  return (
    <Center mih="100dvh" p="md" component="main">
      <Stack align="center" gap="md" maw={480} ta="center">
        <Title order={1}>{t('something_went_wrong')}</Title>
        <Text>{t('error_try_again')}</Text>
        <Button onClick={() => window.location.reload()}>{t('reload_page')}</Button>
      </Stack>
    </Center>
  );
}
