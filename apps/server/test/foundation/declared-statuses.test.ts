import { describe, expect, it } from 'vitest';
import { startPortal, UndeclaredAnswersError } from '../support/portal.js';

describe('answers of a status their route does not declare', () => {
  it('fail the test: the portal collects them and its close() throws, naming each once', async () => {
    const portal = await startPortal();
    // a real route's answer its schema does not declare cannot be made here (every route declares its
    // answers: that is what this check keeps), so one is collected as the check would (src/http/declared-statuses.test.ts)
    const answer = { method: 'GET', route: '/api/portal/configuration', status: 418, problem: 'teapot' };
    portal.app.undeclaredAnswers.push(answer, answer);
    const closed = portal.close();
    await expect(closed).rejects.toBeInstanceOf(UndeclaredAnswersError);
    await expect(closed).rejects.toMatchObject({ answers: ['GET /api/portal/configuration → 418 teapot'] });
  });

  it('leave a portal without them to close quietly', async () => {
    const portal = await startPortal();
    expect((await portal.client().get('/api/portal/configuration')).status).toBe(200);
    expect(portal.app.undeclaredAnswers).toEqual([]);
    await portal.close();
  });
});
