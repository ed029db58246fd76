// SPDX-License-Identifier: MIT
// The Service Bus management API (ATOM over HTTP, docs/api.md "Service Bus management") with
// the unchanged ServiceBusAdministrationClient of @azure/service-bus 7.9.5, against
// `relaydesk serve --sb-management-port 0`: queues, topics, subscriptions and rules are
// created, read, updated, listed page by page and deleted; the runtime counts follow what
// ServiceBusClient sends over AMQP to the same entities; the service's 409, 404, 400 and 401
// come back as the SDK's error codes.
'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { scenario } = require('./relaydesk_harness');
const { ServiceBusAdministrationClient, ServiceBusClient } = require('@azure/service-bus');

const QUICK = { maxWaitTimeInMs: 2000 };

// 7.9.5 always builds https:// URLs (getUrl): the management port answers TLS with a
// certificate of the local CA (docs/behaviour.md §8.7). Node reads NODE_EXTRA_CA_CERTS only at
// its start, so this file first makes a CA in a scratch XDG_DATA_HOME (`relaydesk tls ca`) and
// runs itself again trusting it, as a user does once; the servers inherit that XDG_DATA_HOME.
if (!process.env.RELAYDESK_TRUSTS_LOCAL_CA) {   // (NODE_EXTRA_CA_CERTS may be set already: replaced)
  const { execFileSync, spawnSync } = require('node:child_process');
  const dataHome = fs.mkdtempSync(path.join(os.tmpdir(), 'relaydesk-management-ca-'));
  const env = { ...process.env, XDG_DATA_HOME: dataHome };
  const binary = process.env.RELAYDESK_BINARY;
  env.NODE_EXTRA_CA_CERTS = execFileSync(binary, ['tls', 'ca'], { env, encoding: 'utf8' }).trim();
  env.RELAYDESK_TRUSTS_LOCAL_CA = '1';
  const run = spawnSync(process.execPath, process.argv.slice(1), { env, stdio: 'inherit' });
  fs.rmSync(dataHome, { recursive: true, force: true });
  process.exit(run.status === null ? 1 : run.status);
}

function managementConnectionString(server, key = 'SAS_KEY_VALUE') {
  return `Endpoint=sb://localhost:${server.managementPort};SharedAccessKeyName=RootManageSharedAccessKey;` +
         `SharedAccessKey=${key};UseDevelopmentEmulator=true`;
}

function adminClient(server, key) {
  return new ServiceBusAdministrationClient(managementConnectionString(server, key));
}

// The SDK's error of a rejected call: { code, statusCode, message }.
async function refusal(promise) {
  try {
    await promise;
  } catch (error) {
    return { code: error.code, statusCode: error.statusCode, message: error.message };
  }
  throw new Error('the call succeeded; an error was expected');
}

async function all(iterator) {
  const items = [];
  for await (const item of iterator) items.push(item);
  return items;
}

// A scenario with an administration client and a ServiceBusClient on the same server.
function managementScenario(name, body, serverOptions) {
  scenario(name, async (server) => {
    const client = new ServiceBusClient(server.serviceBusConnectionString());
    try {
      await body(server, adminClient(server), client);
    } finally {
      await client.close();
    }
  }, serverOptions);
}

managementScenario('the namespace', async (server, admin) => {
  const namespace = await admin.getNamespaceProperties();
  assert.equal(namespace.messagingSku, 'Standard');
  assert.equal(namespace.name, 'localhost');
});

managementScenario('a queue: create, get, update, list by page, its counts, delete', async (server, admin, client) => {
  const created = await admin.createQueue('orders', { lockDuration: 'PT30S', maxDeliveryCount: 5 });
  assert.equal(created.name, 'orders');
  assert.equal(created.lockDuration, 'PT30S');
  assert.equal(created.maxDeliveryCount, 5);
  assert.deepEqual(await refusal(admin.createQueue('orders')),
                   { code: 'MessageEntityAlreadyExistsError', statusCode: 409,
                     message: "The messaging entity 'orders' already exists." });

  const queue = await admin.getQueue('orders');
  queue.lockDuration = 'PT1M';
  queue.maxDeliveryCount = 7;
  const updated = await admin.updateQueue(queue);   // sends every property back, as it read them
  assert.equal(updated.lockDuration, 'PT1M');
  assert.equal((await admin.getQueue('orders')).maxDeliveryCount, 7);
  assert.equal(await admin.queueExists('orders'), true);

  await admin.createQueue('payments');
  assert.deepEqual((await all(admin.listQueues())).map((q) => q.name), ['orders', 'payments']);
  const pages = await all(admin.listQueues().byPage({ maxPageSize: 1 }));
  assert.deepEqual(pages.map((page) => page.map((q) => q.name)), [['orders'], ['payments']]);

  // The same queue over AMQP: what is sent is counted, what is settled is gone.
  await client.createSender('orders').sendMessages([{ body: 'one' }, { body: 'two' }]);
  const counts = await admin.getQueueRuntimeProperties('orders');
  assert.equal(counts.activeMessageCount, 2);
  assert.equal(counts.totalMessageCount, 2);
  assert.ok(counts.sizeInBytes > 0);
  const receiver = client.createReceiver('orders');
  const [first] = await receiver.receiveMessages(1, QUICK);
  await receiver.deadLetterMessage(first, { deadLetterReason: 'test' });
  const [second] = await receiver.receiveMessages(1, QUICK);
  await receiver.completeMessage(second);
  await receiver.close();
  const after = await admin.getQueueRuntimeProperties('orders');
  assert.equal(after.activeMessageCount, 0);
  assert.equal(after.deadLetterMessageCount, 1);
  assert.deepEqual((await all(admin.listQueuesRuntimeProperties())).map((q) => q.name), ['orders', 'payments']);

  await admin.deleteQueue('orders');
  assert.equal((await refusal(admin.getQueue('orders'))).code, 'MessageEntityNotFoundError');
  assert.equal((await refusal(admin.deleteQueue('orders'))).statusCode, 404);
  assert.equal(await admin.queueExists('orders'), false);
});

managementScenario('a topic, its subscriptions and rules, then sends through them', async (server, admin, client) => {
  const topic = await admin.createTopic('events', { defaultMessageTimeToLive: 'P1D' });
  assert.equal(topic.defaultMessageTimeToLive, 'P1D');
  await admin.createSubscription('events', 'all', { lockDuration: 'PT45S' });
  await admin.createSubscription('events', 'red', { defaultRuleOptions: { name: 'reds', filter: { subject: 'red' } } });
  assert.equal((await refusal(admin.createSubscription('events', 'all'))).code, 'MessageEntityAlreadyExistsError');
  assert.equal((await refusal(admin.createSubscription('nowhere', 'all'))).code, 'MessageEntityNotFoundError');

  const subscription = await admin.getSubscription('events', 'all');
  assert.equal(subscription.lockDuration, 'PT45S');
  subscription.maxDeliveryCount = 3;
  assert.equal((await admin.updateSubscription(subscription)).maxDeliveryCount, 3);
  assert.deepEqual((await all(admin.listSubscriptions('events'))).map((s) => s.subscriptionName), ['all', 'red']);

  // 'all' keeps one rule: a SQL filter whose action marks the copy.
  await admin.createRule('events', 'all', 'big', { sqlExpression: 'size > 10' }, { sqlExpression: "SET big = 'yes'" });
  await admin.deleteRule('events', 'all', '$Default');
  const rule = await admin.getRule('events', 'all', 'big');
  assert.equal(rule.filter.sqlExpression, 'size > 10');
  assert.equal(rule.action.sqlExpression, "SET big = 'yes'");
  rule.filter = { sqlExpression: 'size > 5' };
  assert.equal((await admin.updateRule('events', 'all', rule)).filter.sqlExpression, 'size > 5');
  const reds = await admin.getRule('events', 'red', 'reds');
  assert.equal(reds.filter.subject, 'red');
  assert.deepEqual((await all(admin.listRules('events', 'all'))).map((r) => r.name), ['big']);
  assert.equal((await refusal(admin.getRule('events', 'all', '$Default'))).statusCode, 404);

  const sender = client.createSender('events');
  await sender.sendMessages([{ body: 'small red', subject: 'red', applicationProperties: { size: 1 } },
                             { body: 'big blue', subject: 'blue', applicationProperties: { size: 20 } }]);
  await sender.close();
  assert.equal((await admin.getSubscriptionRuntimeProperties('events', 'red')).activeMessageCount, 1);
  assert.equal((await admin.getSubscriptionRuntimeProperties('events', 'all')).activeMessageCount, 1);
  const receiver = client.createReceiver('events', 'all', { receiveMode: 'receiveAndDelete' });
  const [big] = await receiver.receiveMessages(1, QUICK);
  await receiver.close();
  assert.equal(big.body, 'big blue');
  assert.equal(big.applicationProperties.big, 'yes');
  assert.equal((await admin.getTopicRuntimeProperties('events')).subscriptionCount, 2);

  await admin.deleteSubscription('events', 'red');
  assert.equal(await admin.subscriptionExists('events', 'red'), false);
  await admin.deleteTopic('events');
  assert.equal((await refusal(admin.getTopic('events'))).code, 'MessageEntityNotFoundError');
  assert.equal(await admin.topicExists('events'), false);
});

managementScenario('what Relaydesk does not implement is refused by name', async (server, admin) => {
  const size = await refusal(admin.createQueue('big', { maxSizeInMegabytes: 2048 }));
  assert.equal(size.statusCode, 400);
  assert.match(size.message, /MaxSizeInMegabytes/);
  const lock = await refusal(admin.createQueue('slow', { lockDuration: 'PT10M' }));
  assert.equal(lock.statusCode, 400);
  assert.match(lock.message, /LockDuration/);
  assert.equal(await admin.queueExists('big'), false);
});

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'relaydesk-management-'));
const credentials = path.join(folder, 'credentials.json');
const SAS_KEY = 'js-management-key-7Qm2';
fs.writeFileSync(credentials, JSON.stringify({ sharedAccessKeys: { RootManageSharedAccessKey: SAS_KEY } }));

scenario('with --credentials the signature is checked', async (server) => {
  await adminClient(server, SAS_KEY).createQueue('signed');
  const forged = await refusal(adminClient(server, 'not-the-key').getQueue('signed'));
  assert.equal(forged.code, 'UnauthorizedRequestError');
  assert.equal(forged.statusCode, 401);
}, { args: ['--credentials', credentials] });
