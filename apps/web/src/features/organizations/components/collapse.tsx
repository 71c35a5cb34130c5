// Mantine's Collapse, loaded where the manage page folds its tree away (routes/manage-organization-page.tsx).
export { Collapse } from '@mantine/core';
