// Test helper: a throwaway certificate authority (and a second, wrong one), a server certificate for 127.0.0.1 and
// a client certificate, made with the openssl command line (scripts/setup.sh installs it) in the test's temp dir.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TestCerts {
  ca: string;
  wrongCa: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
}

const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

export function makeTestCerts(dir: string): TestCerts {
  const p = (f: string) => join(dir, f);
  const ssl = (...args: string[]) => execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  for (const ca of ['ca', 'wrong-ca']) ssl('req', '-x509', ...EC, '-keyout', p(`${ca}.key`), '-out', p(`${ca}.pem`), '-days', '2', '-subj', `/CN=spade-test-${ca}`);
  writeFileSync(p('server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  for (const who of ['server', 'client']) {
    ssl('req', ...EC, '-keyout', p(`${who}.key`), '-out', p(`${who}.csr`), '-subj', `/CN=spade-test-${who}`);
    ssl('x509', '-req', '-in', p(`${who}.csr`), '-CA', p('ca.pem'), '-CAkey', p('ca.key'), '-CAcreateserial', '-out', p(`${who}.pem`), '-days', '2', ...(who === 'server' ? ['-extfile', p('server.ext')] : []));
  }
  return { ca: p('ca.pem'), wrongCa: p('wrong-ca.pem'), serverCert: p('server.pem'), serverKey: p('server.key'), clientCert: p('client.pem'), clientKey: p('client.key') };
}
