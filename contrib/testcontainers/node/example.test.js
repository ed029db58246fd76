// SPDX-License-Identifier: MIT
// An example with RelaydeskContainer (tests/image/check_testcontainers.sh runs it):
//
//   DOCKER_HOST=unix:///run/podman/podman.sock TESTCONTAINERS_RYUK_DISABLED=true npm test
//
// One container with the virtual clock: SQS over its JSON protocol with plain fetch (a
// visibility timeout that passes on advance()), and the Azure Service Bus SDK with the
// container's connection string.
'use strict';
const assert = require('node:assert/strict');
const { after, before, test } = require('node:test');
const { ServiceBusClient } = require('@azure/service-bus');
const { RelaydeskContainer } = require('./relaydesk_container');

let relaydesk;
before(async () => { relaydesk = await new RelaydeskContainer().withClock('virtual').start(); });
after(async () => { await relaydesk?.stop(); });

// An SQS action over the JSON protocol (what the AWS SDKs send), unsigned.
async function sqs(action, body) {
  const reply = await fetch(relaydesk.sqsEndpoint(), {
    method: 'POST', body: JSON.stringify(body),
    headers: { 'Content-Type': 'application/x-amz-json-1.0', 'X-Amz-Target': `AmazonSQS.${action}` },
  });
  const answer = await reply.json();
  assert.equal(reply.status, 200, JSON.stringify(answer));
  return answer;
}

const bodies = (received) => (received.Messages || []).map((m) => `${m.Body} #${m.Attributes.ApproximateReceiveCount}`);

test('a visibility timeout passes when the clock is advanced', async () => {
  const { QueueUrl } = await sqs('CreateQueue', { QueueName: 'orders', Attributes: { VisibilityTimeout: '30' } });
  await sqs('SendMessage', { QueueUrl, MessageBody: 'order 1' });
  const receive = () => sqs('ReceiveMessage', { QueueUrl, MessageSystemAttributeNames: ['ApproximateReceiveCount'] });
  assert.deepEqual(bodies(await receive()), ['order 1 #1']);
  assert.deepEqual(bodies(await receive()), []); // in flight for 30 s
  await relaydesk.advance(29);
  assert.deepEqual(bodies(await receive()), []);
  await relaydesk.advance(1);
  assert.deepEqual(bodies(await receive()), ['order 1 #2']);
});

test('the Service Bus SDK sends and receives with the connection string', async () => {
  const created = await fetch(`${relaydesk.httpEndpoint()}/api/v1/servicebus/queues`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ Name: 'jobs', Properties: {} }),
  });
  assert.equal(created.status, 201, await created.text());
  const client = new ServiceBusClient(relaydesk.servicebusConnectionString());
  try {
    await client.createSender('jobs').sendMessages({ body: 'job 1' });
    const receiver = client.createReceiver('jobs');
    const got = await receiver.receiveMessages(1, { maxWaitTimeInMs: 10_000 });
    assert.deepEqual(got.map((m) => m.body), ['job 1']);
    await receiver.completeMessage(got[0]);
  } finally {
    await client.close();
  }
});

test('advance needs the virtual clock', async () => {
  const real = await new RelaydeskContainer().start();
  try {
    await assert.rejects(real.advance(1), /withClock\('virtual'\)/);
  } finally {
    await real.stop();
  }
});
