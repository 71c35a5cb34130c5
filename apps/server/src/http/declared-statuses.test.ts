import { Writable } from 'node:stream';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkDeclaredStatuses, type UndeclaredAnswer } from './declared-statuses.js';

/** An app whose one route declares 200 and 404 and answers the status the query asks for, its error log lines kept. */
async function appAnswering() {
  const lines: { level: number; msg: string }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as { level: number; msg: string });
      done();
    },
  });
  const app = Fastify({ logger: { level: 'error', stream } });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const undeclared: UndeclaredAnswer[] = [];
  checkDeclaredStatuses(app, (answer) => undeclared.push(answer));
  const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const { status } = request.query as { status: number };
    return reply.code(status).send(status === 200 ? { ok: true } : { i18NTranslationKey: status === 403 ? 'csrf_header_missing' : 'nope' });
  };
  app.route({
    method: 'GET',
    url: '/api/things/:id',
    schema: {
      querystring: z.object({ status: z.coerce.number() }),
      response: { 200: z.object({ ok: z.boolean() }), 404: z.object({ i18NTranslationKey: z.string() }) },
    },
    handler,
  });
  await app.ready();
  return { app, undeclared, lines };
}

describe('the check of the declared statuses', () => {
  it('logs an answer of a status its route does not declare at error level and hands it on, with its problem', async () => {
    const { app, undeclared, lines } = await appAnswering();
    expect((await app.inject('/api/things/1?status=409')).statusCode).toBe(409);
    expect(undeclared).toEqual([{ method: 'GET', route: '/api/things/:id', status: 409, problem: 'nope' }]);
    const logged = lines.filter((line) => line.msg.includes('which its schema does not declare'));
    expect(logged).toHaveLength(1);
    expect(logged[0]!.level).toBe(50);
    expect(logged[0]!.msg).toBe('GET /api/things/:id answered 409, which its schema does not declare');
    await app.close();
  });

  it('lets the declared statuses pass, and those the shared guards give', async () => {
    const { app, undeclared, lines } = await appAnswering();
    for (const status of [200, 404, 429, 503]) expect((await app.inject(`/api/things/1?status=${status}`)).statusCode).toBe(status);
    // a shared guard's problem whose status the route does not declare
    expect((await app.inject('/api/things/1?status=403')).statusCode).toBe(403);
    expect(undeclared).toEqual([]);
    expect(lines.filter((line) => line.msg.includes('which its schema does not declare'))).toEqual([]);
    await app.close();
  });
});
