import type { Database } from '../../db/client.js';
import { AppError } from '../../http/problem.js';
import type { SessionUser } from '../../http/session.js';
import { buildTree } from '../organizations/service.js';
import { findRootOrganization, listSubtree } from '../organizations/queries.js';

/** The whole organization tree as JSON, for developers (users.is_developer) only. */
export class DeveloperExport {
  constructor(private readonly deps: { db: Database }) {}

  async organizationTree(user: SessionUser) {
    const { db } = this.deps;
    if (!user.isDeveloper) throw new AppError('forbidden');
    const root = await findRootOrganization(db);
    if (!root) throw new AppError('not_found');
    const list = await listSubtree(db, root.path);
    const tree = buildTree(list);
    if (!tree) throw new AppError('not_found');
    return { exported_at: new Date().toISOString(), organizations: list.length, tree };
  }
}
