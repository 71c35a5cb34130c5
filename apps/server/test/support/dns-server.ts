import dns2, { type DnsServer as Dns2Server } from 'dns2';

const { Packet } = dns2;

/** How a handler answers: dns2 sends the packet (refused once the server has stopped: a late answer goes nowhere). */
type Send = (response: InstanceType<typeof Packet>) => Promise<unknown>;

/**
 * A real DNS server for tests (dns2, over UDP on 127.0.0.1 and a free port) serving TXT records
 * from a map that the test changes as it goes: `set` publishes records at a name, `remove` takes
 * them away; every other name is NXDOMAIN. `silence` makes questions about a name go unanswered
 * (the portal's resolver times out), `fail` answers them with an error code (SERVFAIL, REFUSED) and
 * `delay` answers them late (to hold several lookups in flight at once).
 * Start the portal with `DNS_SERVERS: dns.address`. `stop` closes the port (the portal's questions
 * are refused); `start` opens the same port again.
 */
export class DnsServer {
  /** TXT records by name (lower case, no trailing dot): each record is its character-strings */
  private readonly records = new Map<string, string[][]>();
  private readonly silenced = new Set<string>();
  private readonly failing = new Map<string, number>();
  private readonly delays = new Map<string, number>();
  private server: Dns2Server | null = null;
  /** every question asked, as `name TYPE` (lower case) */
  readonly questions: string[] = [];
  port = 0;

  /** `ip:port` for DNS_SERVERS */
  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  /**
   * Publish TXT records at a name (replacing those it had). A record given as a string is sent in
   * character-strings of at most 255 octets, as DNS needs; given as an array, in those chunks.
   */
  set(name: string, ...records: (string | string[])[]): this {
    this.records.set(
      key(name),
      records.map((r) => (Array.isArray(r) ? r : chunks(r))),
    );
    this.silenced.delete(key(name));
    this.failing.delete(key(name));
    return this;
  }

  /** The name exists no more (NXDOMAIN). */
  remove(name: string): this {
    this.records.delete(key(name));
    this.silenced.delete(key(name));
    this.failing.delete(key(name));
    return this;
  }

  /** Questions about the name get no answer at all (the resolver times out) until set or remove. */
  silence(name: string): this {
    this.silenced.add(key(name));
    return this;
  }

  /** Questions about the name are answered with an error code (default SERVFAIL) until set or remove. */
  fail(name: string, rcode: number = Packet.RCODE.SERVFAIL): this {
    this.failing.set(key(name), rcode);
    return this;
  }

  /** Answer questions about the name only after `ms` milliseconds (0: at once again). */
  delay(name: string, ms: number): this {
    if (ms > 0) this.delays.set(key(name), ms);
    else this.delays.delete(key(name));
    return this;
  }

  async start(): Promise<this> {
    const server = dns2.createServer({ udp: true, handle: (request, send) => this.answer(request, send) });
    const addresses = await server.listen({ udp: { port: this.port, address: '127.0.0.1' } });
    this.server = server;
    this.port = addresses.udp?.port ?? 0;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    await server?.close();
  }

  private answer(request: InstanceType<typeof Packet>, send: Send): void {
    const response = Packet.createResponseFromRequest(request);
    const [question] = request.questions;
    if (!question) {
      response.header.rcode = Packet.RCODE.FORMERR;
      send(response).catch(() => undefined);
      return;
    }
    const name = key(question.name);
    this.questions.push(`${name} ${Packet.TYPE_NAME?.[question.type] ?? question.type}`);
    if (this.silenced.has(name)) return;
    const delay = this.delays.get(name);
    if (delay) {
      setTimeout(() => this.reply(question, response, send), delay);
      return;
    }
    this.reply(question, response, send);
  }

  private reply(question: InstanceType<typeof Packet>['questions'][number], response: InstanceType<typeof Packet>, send: Send): void {
    const name = key(question.name);
    const rcode = this.failing.get(name);
    const records = this.records.get(name);
    if (rcode !== undefined) response.header.rcode = rcode;
    else if (!records) response.header.rcode = Packet.RCODE.NXDOMAIN;
    else if (question.type === Packet.TYPE.TXT) {
      for (const data of records) response.answers.push(Packet.createResourceFromQuestion(question, { ttl: 0, data }));
    }
    send(response).catch(() => undefined);
  }
}

function key(name: string): string {
  return name.toLowerCase().replace(/\.$/, '');
}

function chunks(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const out: string[] = [];
  for (let i = 0; i < bytes.length; i += 255) out.push(bytes.subarray(i, i + 255).toString('utf8'));
  return out.length ? out : [''];
}

/** A DNS server started for a test file. */
export async function startDnsServer(): Promise<DnsServer> {
  return new DnsServer().start();
}
