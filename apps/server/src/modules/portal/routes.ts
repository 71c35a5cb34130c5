import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { featuresSchema, notificationSchema, portalConfigurationSchema, tileSchema } from '@partner-portal/contracts';
import type { Portal } from './service.js';
import { documented } from '../../http/route-kit.js';

const tags = ['portal'];
/** The answer of a signed-in user's read: the list or object, or 401. */
const forUser = <T extends z.ZodType>(summary: string, answer: T) => documented({ tags, summary, response: { 200: answer } }, [401]);

/** The home page: tiles, notifications, feature flags, site configuration. */
export const portalRoutes: FastifyPluginAsyncZod<{ portal: Portal }> = async (app, { portal }) => {
  const { sessions } = app.services;
  const tilesSummary =
    'The tiles the signed-in user may open (coming_soon tiles included, to be shown inactive), plus the user-management tile for managers';
  app.get('/api/portal', forUser(tilesSummary, z.array(tileSchema)), async (request) => portal.tiles(await sessions.require(request)));

  const notificationsSummary = 'Active portal warning messages, in the user’s language';
  app.get('/api/portal/notifications', forUser(notificationsSummary, z.array(notificationSchema)), async (request) =>
    portal.notifications(await sessions.require(request)),
  );

  const calculatorSummary =
    'Messages of the farmer profit calculator (answered in the notifications shape; none are kept yet, so the list is empty)';
  app.get('/api/portal/profit-calculator', forUser(calculatorSummary, z.array(notificationSchema)), async (request) => {
    await sessions.require(request);
    return [];
  });

  app.get('/api/portal/application/features', forUser('Feature flags of the portal', featuresSchema), async (request) => {
    await sessions.require(request);
    return portal.features();
  });

  app.get(
    '/api/portal/configuration',
    {
      schema: {
        tags,
        summary: 'Site settings shown before login (privacy statement, licence agreement, sales contact, login video); no login needed',
        response: { 200: portalConfigurationSchema },
      },
    },
    async () => portal.configuration(),
  );
};
