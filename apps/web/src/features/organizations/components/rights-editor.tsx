import { Checkbox, Fieldset, SimpleGrid, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Rights, RightsContext } from '@partner-portal/contracts';
import { editorState, toggleGlobal, toggleRight } from '../lib/rights-editor';

/**
 * The rights editor of spec §6, drawn from the shared rules: a section per app, global full
 * permission (outside the provider's organization) that checks and disables every app box, per-app
 * full permission, Access locked while a sub-right is ticked, provider-only and developer boxes.
 */
export function RightsEditor({
  rights,
  context,
  onChange,
}: {
  rights: Rights;
  context: RightsContext;
  onChange: (rights: Rights) => void;
}) {
  const { t } = useTranslation();
  const state = editorState(rights, context);
  return (
    <Stack gap="sm">
      {state.globalOffered ? (
        <Checkbox
          label={t('rights.global_full_permission')}
          checked={state.global}
          onChange={(e) => onChange(toggleGlobal(rights, e.currentTarget.checked, context))}
          fw={600}
        />
      ) : null}
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        {state.sections.map(({ section, boxes }) => (
          <Fieldset key={section.section} legend={t(section.titleKey)} variant="filled" p="sm">
            <Stack gap={6}>
              {boxes.map(({ right, checked, disabled }) => (
                <Checkbox
                  key={right.name}
                  id={`right-${section.section}-${right.name}`}
                  name={`${section.section}.${right.name}`}
                  label={t(`rights.${section.section}.${right.name}`, { defaultValue: t(`rights.common.${right.name}`) })}
                  checked={checked}
                  disabled={disabled}
                  onChange={(e) => onChange(toggleRight(rights, section.section, right.name, e.currentTarget.checked, context))}
                />
              ))}
            </Stack>
          </Fieldset>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
