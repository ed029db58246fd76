// SPDX-License-Identifier: MIT
// Azure Service Bus over TLS (docs/behaviour.md §8.7) with the unchanged @azure/service-bus
// SDK: `serve --amqps-port 0` presents a certificate of the local CA, and a connection
// string WITHOUT UseDevelopmentEmulator=true (what production code builds) makes the SDK
// speak TLS. A client trusting `relaydesk tls ca`'s file (NODE_EXTRA_CA_CERTS, read by node
// at its start, so each client is a child process) sends, receives and completes; one that
// does not trust it is refused at the handshake. Each server keeps its CA in a folder of its
// own (XDG_DATA_HOME), never the user's.
'use strict';
const assert = require('node:assert/strict');
const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

// ---- the client, run as a child: node servicebus_tls_scenarios.js client QUEUE ----
async function runClient(queue) {
  const { ServiceBusClient } = require('@azure/service-bus');
  const client = new ServiceBusClient(process.env.RELAYDESK_CONNECTION_STRING,
                                      { retryOptions: { maxRetries: 0, timeoutInMs: 20000 } });
  try {
    await client.createSender(queue).sendMessages({ body: 'over TLS' });
    const receiver = client.createReceiver(queue);
    const [message] = await receiver.receiveMessages(1, { maxWaitTimeInMs: 5000 });
    await receiver.completeMessage(message);
    return { body: message.body };
  } catch (error) {
    return { error: `${error.code || error.name}: ${error.message}` };
  } finally {
    await client.close();
  }
}

if (process.argv[2] === 'client') {
  runClient(process.argv[3]).then((outcome) => process.stdout.write(JSON.stringify(outcome)));
  return;
}

// ---- the scenarios ----
const { scenario, binaryFromEnvironment } = require('./relaydesk_harness');

const dataHome = fs.mkdtempSync(path.join(os.tmpdir(), 'relaydesk-tls-'));
const serverEnv = { ...process.env, XDG_DATA_HOME: dataHome };
process.on('exit', () => fs.rmSync(dataHome, { recursive: true, force: true }));

function authorityFile() {
  return execFileSync(binaryFromEnvironment(), ['tls', 'ca'], { env: serverEnv, encoding: 'utf8' }).trim();
}

// The connection string production code has: no UseDevelopmentEmulator, so TLS.
function tlsConnectionString(server) {
  return `Endpoint=sb://localhost:${server.amqpsPort};SharedAccessKeyName=RootManageSharedAccessKey;` +
         'SharedAccessKey=SAS_KEY_VALUE';
}

function runChild(server, queue, extraCaFile) {
  const env = { ...process.env, RELAYDESK_CONNECTION_STRING: tlsConnectionString(server) };
  delete env.NODE_EXTRA_CA_CERTS;
  if (extraCaFile) env.NODE_EXTRA_CA_CERTS = extraCaFile;
  const child = spawnSync(process.execPath, [__filename, 'client', queue], { env, encoding: 'utf8' });
  assert.equal(child.status, 0, child.stderr);
  return JSON.parse(child.stdout);
}

const CASES = [
  { name: 'a client trusting the local CA sends, receives and completes over TLS', trusts: true,
    expect: (outcome) => assert.deepEqual(outcome, { body: 'over TLS' }) },
  { name: 'a client that does not trust the local CA is refused at the handshake', trusts: false,
    expect: (outcome) => assert.match(outcome.error || '', /certificate|CERT/i, JSON.stringify(outcome)) },
];

for (const { name, trusts, expect } of CASES) {
  scenario(name, async (server) => {
    const queue = 'tls-orders';
    const created = await server.api('POST', '/servicebus/queues', { Name: queue, Properties: {} });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    expect(runChild(server, queue, trusts ? authorityFile() : null));
    const { body } = await server.api('GET', `/queues/${queue}`);
    // Completed when trusted; nothing sent at all when refused.
    assert.equal(Number(body.attributes.ApproximateNumberOfMessages), 0);
    assert.equal(Number(body.attributes.ApproximateNumberOfMessagesNotVisible), 0);
  }, { amqps: true, env: serverEnv });
}
