import { forwardRef, type ComponentPropsWithoutRef } from 'react';
import { Box, List, PasswordInput, Text, VisuallyHidden } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { PASSWORD_RULES, brokenPasswordRules } from '@partner-portal/contracts';

type Props = ComponentPropsWithoutRef<typeof PasswordInput> & { value?: string };

/**
 * The new-password field of every form that sets one (change and reset password, registration):
 * the rules of packages/contracts/src/passwords.ts (docs/product.md, "Validation") show below it
 * from the start, before anything is typed, in the flow of the form (they push the next field down
 * rather than cover it), each ticked off as it is met (the tick and cross carry the colour; the text keeps the body
 * colour for contrast). The field is described by the hints, which are announced
 * politely as they change.
 */
export const PasswordWithHints = forwardRef<HTMLInputElement, Props>(function PasswordWithHints(props, ref) {
  const { t } = useTranslation();
  const broken = new Set(brokenPasswordRules(props.value ?? ''));
  const hintsId = `${props.id ?? props.name ?? 'password'}-hints`;
  return (
    <div>
      <PasswordInput {...props} ref={ref} aria-describedby={hintsId} />
      <Box mt={6} p="xs" bg="gray.0" bd="1px solid var(--mantine-color-gray-3)" style={{ borderRadius: 'var(--mantine-radius-sm)' }}>
        <Text size="sm" fw={600} mb={4}>
          {t('password_hints_title')}
        </Text>
        <List id={hintsId} size="sm" spacing={2} aria-live="polite" listStyleType="none">
          {PASSWORD_RULES.map((rule) => {
            const ok = !broken.has(rule);
            return (
              <List.Item
                key={rule}
                icon={
                  ok ? (
                    <IconCheck size={14} color="var(--mantine-color-green-8)" aria-hidden />
                  ) : (
                    <IconX size={14} color="var(--mantine-color-red-8)" aria-hidden />
                  )
                }
              >
                <Text size="sm" component="span" fw={ok ? 400 : 500}>
                  {t(`hint_${rule}`)}
                  {ok ? <VisuallyHidden>{` (${t('hint_met')})`}</VisuallyHidden> : null}
                </Text>
              </List.Item>
            );
          })}
        </List>
      </Box>
    </div>
  );
});
