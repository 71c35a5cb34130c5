import { useId, useState } from 'react';
import { Button, Code, Collapse, List, Paper, Stack, Text, Title } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { Trans, useTranslation } from 'react-i18next';
import { CopyField } from '@/components/copy-field';

/** The directories a guide is written for, with the number of its steps (integrations.scim_guide_<id>_<n>). */
const GUIDES = [
  { id: 'entra', name: 'Microsoft Entra ID', steps: 5 },
  { id: 'okta', name: 'Okta', steps: 6 },
  { id: 'jumpcloud', name: 'JumpCloud', steps: 4 },
] as const;

/** Attribute names and URNs in a guide's text (<c>…</c>), wrapped anywhere on a narrow screen. */
const CODE = { c: <Code style={{ overflowWrap: 'anywhere' }} /> };

/**
 * How to set up a directory (docs/integrations.md, "Setting up a directory"): what every directory
 * needs, what the portal keeps and where the people land, the organization's id for the
 * organization extension, and a short guide each for Microsoft Entra ID, Okta and JumpCloud, folded
 * like a webhook's deliveries.
 */
export function ScimGuides({ organizationId }: { organizationId: string }) {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <Stack gap="xs" mt="sm" component="section" aria-labelledby={headingId} data-testid="scim-guides">
      <Title order={3} size="h5" id={headingId}>
        {t('integrations.scim_guides_title')}
      </Title>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        <Trans i18nKey="integrations.scim_guides_intro" components={CODE} />
      </Text>
      <CopyField label={t('integrations.scim_organization_id')} value={organizationId} testId="scim-organization-id" />
      <Stack component="ul" gap="xs" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-labelledby={headingId}>
        {GUIDES.map((guide) => (
          <Guide key={guide.id} {...guide} />
        ))}
      </Stack>
    </Stack>
  );
}

function Guide({ id, name, steps }: (typeof GUIDES)[number]) {
  const [open, setOpen] = useState(false);
  const stepsId = useId();
  return (
    <Paper component="li" withBorder p="sm" radius="md" data-testid="scim-guide" data-directory={id}>
      <Button
        variant="subtle"
        size="compact-sm"
        rightSection={<IconChevronDown size={14} aria-hidden style={{ transform: open ? 'rotate(180deg)' : undefined }} />}
        aria-expanded={open}
        aria-controls={stepsId}
        onClick={() => setOpen(!open)}
      >
        {name}
      </Button>
      <Collapse expanded={open} id={stepsId}>
        <List type="ordered" size="sm" spacing={4} mt="xs" style={{ overflowWrap: 'anywhere' }}>
          {Array.from({ length: steps }, (_, i) => (
            <List.Item key={i}>
              <Trans i18nKey={`integrations.scim_guide_${id}_${i + 1}`} components={CODE} />
            </List.Item>
          ))}
        </List>
      </Collapse>
    </Paper>
  );
}
