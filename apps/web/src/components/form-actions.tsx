import { Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/**
 * The buttons at the foot of a form, on the right: "Cancel" (a button, or a link back) when there
 * is a way out, then the submit button.
 */
export function FormActions({
  submit,
  busy,
  onCancel,
  cancelTo,
}: {
  submit: string;
  busy: boolean;
  onCancel?: () => void;
  /** where "Cancel" leads, as a link */
  cancelTo?: string;
}) {
  const { t } = useTranslation();
  return (
    <Group justify="flex-end" gap="sm">
      {onCancel && (
        <Button variant="default" onClick={onCancel}>
          {t('cancel')}
        </Button>
      )}
      {cancelTo !== undefined && (
        <Button variant="default" component={Link} to={cancelTo}>
          {t('cancel')}
        </Button>
      )}
      <Button type="submit" loading={busy}>
        {submit}
      </Button>
    </Group>
  );
}
