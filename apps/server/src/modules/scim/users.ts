import type { Logger } from 'pino';
import type { Database } from '../../db/client.js';
import { pgErrorCode } from '../../db/errors.js';
import { auditRefusal, RefusedChange } from '../audit/service.js';
import { filterCondition } from './filter.js';
import * as q from './queries.js';
import { toScimUser } from './representation.js';
import { scimError, type ScimObject, type SCIMMY, type UserStore } from './scimmy.js';
import { MemberStore, type StoreDeps } from './store.js';
import type { DirectoryActor } from '../../http/actor.js';

/**
 * The members of a token's subtree as SCIM Users (docs/integrations.md, "SCIM 2.0"): reads, the
 * list with its filter and paging, and changes, each change one transaction (store.ts holds the
 * rules) that writes what leaves afterwards (back-channel logouts, e-mails, events) to the outboxes.
 */
export class ScimUsers {
  constructor(private readonly deps: StoreDeps & { db: Database; log: Logger }) {}

  /** A read (GET /Users/{id}) through the store. */
  async read<T>(actor: DirectoryActor, work: (store: UserStore) => Promise<T>): Promise<T> {
    return work(new MemberStore(this.deps, this.deps.db, actor, false));
  }

  /**
   * A change (POST, PUT, PATCH, DELETE) in one transaction, all or nothing; with `ifMatch`, 412
   * unless the member is still at that version. Back-channel logouts and invitation e-mails are
   * written to their outboxes in the transaction. A refused change is audited; a race for an
   * address is 409 uniqueness.
   */
  async change<T>(actor: DirectoryActor, ifMatch: { id: string; tag: string } | null, work: (store: UserStore) => Promise<T>): Promise<T> {
    const { db } = this.deps;
    try {
      return await db.transaction(async (tx) => {
        const store = new MemberStore(this.deps, tx, actor, true);
        if (ifMatch) await store.checkVersion(ifMatch.id, ifMatch.tag);
        return work(store);
      });
    } catch (err) {
      if (err instanceof RefusedChange) {
        await auditRefusal(db, actor, err);
        throw scimError(err.status, null, err.message);
      }
      if (pgErrorCode(err) === '23505') throw scimError(409, 'uniqueness', 'Another account has this userName');
      throw err;
    }
  }

  /** A page of the subtree's members matching a filter (parsed by scimmy), and how many match. */
  async list(
    actor: DirectoryActor,
    query: { filter: SCIMMY.Types.Filter | undefined; startIndex: number; count: number },
  ): Promise<{ total: number; resources: ScimObject[] }> {
    const { db, config } = this.deps;
    const condition = query.filter ? filterCondition(query.filter, 1) : { sql: 'true', params: [] };
    const { total, rows } = await q.listScimUsers(db, actor.organizationPath, condition, query.count, query.startIndex - 1);
    return { total, resources: rows.map((row) => toScimUser(row, config.publicUrl)) };
  }
}
