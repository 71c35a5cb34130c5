import type { Config } from '../../config.js';
import type { Queryable } from '../../db/client.js';
import type { Actor } from '../../http/actor.js';
import type { Mailer } from '../mail/mailer.js';
import { setupStepEmail, type SetupStep } from './messages.js';
import { findMaker } from './queries.js';

/**
 * The notice to a setup link's maker that a step was done through it (the operating contract,
 * "Setup links for a dealer's IT person": "the managers who made it are told when a step
 * completes"): a domain verified, a connection created or switched on, a SCIM token created. The
 * services of those steps (domains, sso, scim tokens) call `completed` in the change's
 * transaction; for any actor but a setup link it does nothing. The e-mail leaves through the
 * outbox, in the maker's language.
 */
export class SetupSteps {
  constructor(private readonly deps: { mailer: Mailer; config: Config }) {}

  async completed(tx: Queryable, actor: Actor, step: SetupStep, detail: string): Promise<void> {
    if (actor.kind !== 'setup_link') return;
    const maker = await findMaker(tx, actor.setupLink.id);
    if (!maker) return;
    const message = setupStepEmail({
      language: maker.language_code,
      firstName: maker.first_name || null,
      email: actor.setupLink.email,
      organizationName: maker.organization_name,
      step,
      detail,
      link: `${this.deps.config.publicUrl}/manage-organization/${actor.setupLink.organizationId}#integrations`,
    });
    await this.deps.mailer.enqueue({ ...message, to: maker.email, kind: 'setup-link-step' }, { tx });
  }
}
