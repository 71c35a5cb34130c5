import { z } from 'zod';
import { APP_SECTIONS, type AppSection, type Rights, type RightsInput } from './rights.js';

/*
 * The rights' wire shape, apart from the catalogue and its rules (./rights.ts) so that the web
 * app's pages that only apply the rules do not load zod (docs/decisions/022-login-and-manage-bundles.md).
 */

function sectionSchema(section: AppSection) {
  const shape: Record<string, z.ZodDefault<z.ZodBoolean>> = {};
  for (const right of section.rights) shape[right.name] = z.boolean().default(false);
  return z.strictObject(shape).default(() => Object.fromEntries(section.rights.map((x) => [x.name, false])));
}

const rightsShape = {
  global_full_permission: z.boolean().default(false),
  ...Object.fromEntries(APP_SECTIONS.map((s) => [s.section, sectionSchema(s)])),
} as Record<string, z.ZodTypeAny>;

/** Rights as sent and received: every box a boolean; missing boxes are false. */
export const rightsSchema = z.strictObject(rightsShape) as unknown as z.ZodType<Rights, RightsInput>;
