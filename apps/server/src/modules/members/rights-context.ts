import {
  APP_SECTIONS,
  featuresFrom,
  applyRightsRules,
  disallowedRights,
  type Rights,
  type RightsContext,
  type SectionKey,
} from '@partner-portal/contracts';
import type { Queryable } from '../../db/client.js';
import { AppError } from '../../http/problem.js';
import { listOrganizationApps, readFeatures } from '../organizations/queries.js';

/** The rights context (contracts rights.ts) of a member of one organization. */
export async function rightsContextFor(
  db: Queryable,
  organization: { id: string; depth: number },
  editorIsDeveloper: boolean,
): Promise<RightsContext> {
  const [apps, featureRows] = await Promise.all([listOrganizationApps(db, organization.id), readFeatures(db)]);
  return {
    isProviderOrganization: organization.depth === 0,
    organizationClientIds: apps.map((a) => a.client_id),
    features: featuresFrom(featureRows),
    editorIsDeveloper,
  };
}

/**
 * Check rights against docs/product.md, "Roles and rights" (409 invalid_rights listing the refused boxes) and apply the
 * implications. An editor who is not a developer cannot change developer boxes: they keep their
 * stored value (sending them unchanged is fine, changing them is refused).
 */
export function validateRights(input: Rights, ctx: RightsContext, stored: Rights | null): Rights {
  const candidate = structuredClone(input);
  const wrong: string[] = [];
  const keptDeveloper: SectionKey[] = [];
  if (!ctx.editorIsDeveloper) {
    for (const s of APP_SECTIONS) {
      if (!s.rights.some((r) => r.kind === 'developer')) continue;
      const given = candidate[s.section].developer === true;
      const before = stored?.[s.section].developer === true;
      if (given !== before) wrong.push(`${s.section}.developer`);
      if (before) keptDeveloper.push(s.section);
      candidate[s.section].developer = false;
    }
  }
  wrong.push(...disallowedRights(candidate, ctx));
  if (wrong.length) throw new AppError('invalid_rights', { messages: wrong, params: { rights: wrong.join(', ') } });
  const applied = applyRightsRules(candidate, ctx);
  if (ctx.isProviderOrganization) for (const section of keptDeveloper) applied[section].developer = true;
  return applied;
}

/** The actor as the one who hands out rights (contracts delegation.ts): http/actor.ts. */
export { delegatorOf } from '../../http/actor.js';
