// SPDX-License-Identifier: MIT
// The Service Bus management API (ATOM over HTTP, docs/api.md "Service Bus management") with
// the unchanged ServiceBusAdministrationClient of @azure/service-bus 7.9.5, against
// `relaydesk serve --sb-management-port 0`: queues, topics, subscriptions and rules are
// created, read, updated, listed page by page and deleted; the runtime counts follow what
// ServiceBusClient sends over AMQP to the same entities (dead letters, rule actions); the service's
// 409 and 404 come back as the SDK's error codes. These are the scenarios particular to this SDK;
// servicebus_management_table_scenarios.js runs the rows every administration client shares
// (../servicebus_management_scenarios.json: the namespace, refusals by name, checked signatures...).
'use strict';
const assert = require('node:assert/strict');
const { scenario } = require('./relaydesk_harness');
const { adminClient, all, refusal, runTrustingLocalCa } = require('./servicebus_management_client');
const { ServiceBusClient } = require('@azure/service-bus');

const QUICK = { maxWaitTimeInMs: 2000 };

// 7.9.5 always builds https:// URLs (getUrl): the management port answers TLS with a
// certificate of the local CA (docs/behaviour.md §8.7), trusted through NODE_EXTRA_CA_CERTS.
runTrustingLocalCa();

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
