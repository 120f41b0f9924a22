/**
 * A real local DNS server (UDP, node:dgram) for tests of DNS-resolving code: answers A and AAAA
 * queries from `records` (name → addresses, changeable between queries, which is how a DNS
 * rebinding attacker behaves), NXDOMAIN for unknown names, an empty answer for other types; TTL 0.
 * Counts the queries per `type name` (e.g. `A rebind.test`). Point code at it with
 * MUSTER_WEBHOOKS_DNS_SERVERS=127.0.0.1:<port>.
 */
import { createSocket } from 'node:dgram';
import { isIP } from 'node:net';

export interface FakeDns {
  port: number;
  /** name (lower case, no trailing dot) → its addresses (IPv4 for A, IPv6 for AAAA). */
  records: Map<string, string[]>;
  /** Queries received, per `A name` / `AAAA name`. */
  queries: Map<string, number>;
  close(): Promise<void>;
}

const TYPE_A = 1;
const TYPE_AAAA = 28;

function readName(msg: Buffer, start: number): { name: string; end: number } {
  const labels: string[] = [];
  let i = start;
  while (msg[i]! !== 0) {
    const len = msg[i]!;
    labels.push(msg.subarray(i + 1, i + 1 + len).toString('ascii'));
    i += 1 + len;
  }
  return { name: labels.join('.').toLowerCase(), end: i + 1 };
}

function rdata(type: number, address: string): Buffer | null {
  if (type === TYPE_A && isIP(address) === 4) return Buffer.from(address.split('.').map(Number));
  if (type !== TYPE_AAAA || isIP(address) !== 6) return null;
  const [head = '', tail = ''] = address.split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = address.includes('::') ? [...h, ...Array(8 - h.length - t.length).fill('0'), ...t] : h;
  const out = Buffer.alloc(16);
  for (const [k, g] of groups.entries()) out.writeUInt16BE(Number.parseInt(g, 16), k * 2);
  return out;
}

/** Builds the answer to one query (the question copied, one record per matching address). */
function answer(query: Buffer, fake: FakeDns): Buffer {
  const { name, end } = readName(query, 12);
  const type = query.readUInt16BE(end);
  const question = query.subarray(12, end + 4);
  const key = `${type === TYPE_A ? 'A' : type === TYPE_AAAA ? 'AAAA' : type} ${name}`;
  fake.queries.set(key, (fake.queries.get(key) ?? 0) + 1);
  const known = fake.records.get(name);
  const records = (known ?? []).map((a) => rdata(type, a)).filter((b): b is Buffer => b !== null);
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2); // id
  header.writeUInt16BE(0x8180 | (known ? 0 : 3), 2); // response, recursion available, NOERROR/NXDOMAIN
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(records.length, 6);
  const answers = records.map((data) => {
    const rr = Buffer.alloc(12);
    rr.writeUInt16BE(0xc00c, 0); // pointer to the question's name
    rr.writeUInt16BE(type, 2);
    rr.writeUInt16BE(1, 4); // IN
    rr.writeUInt32BE(0, 6); // TTL 0: never cached
    rr.writeUInt16BE(data.length, 10);
    return Buffer.concat([rr, data]);
  });
  return Buffer.concat([header, question, ...answers]);
}

export async function startFakeDns(): Promise<FakeDns> {
  const socket = createSocket('udp4');
  const fake: FakeDns = {
    port: 0,
    records: new Map(),
    queries: new Map(),
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
  socket.on('message', (msg, peer) => {
    try {
      socket.send(answer(msg, fake), peer.port, peer.address);
    } catch {
      // A malformed query gets no answer (the client times out), as from a real server.
    }
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  fake.port = socket.address().port;
  return fake;
}
