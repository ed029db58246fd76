// SPDX-License-Identifier: MIT
// `relaydesk serve --credentials FILE` with the AWS SDK for JavaScript v3 (SQS JSON protocol,
// SNS query protocol) and @azure/service-bus (the SAS key name of its $cbs put-token):
// the right key works, an unknown key id, a wrong secret or a wrong key name is refused
// (docs/configuration.md "Credentials").
'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { scenario, errorCode, sqsSdk, snsSdk } = require('./relaydesk_harness');
const { ServiceBusClient } = require('@azure/service-bus');

const KEY = { accessKeyId: 'AKIDRELAYDESKJS01', secretAccessKey: 'js-secret-5hT/9q+Wm2' };
const TOKEN = 'js-bearer-token-81c2';
const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'relaydesk-credentials-'));
const file = path.join(folder, 'credentials.json');
fs.writeFileSync(file, JSON.stringify({ accessKeys: { [KEY.accessKeyId]: KEY.secretAccessKey }, bearerTokens: [TOKEN],
                                        sharedAccessKeyNames: ['RootManageSharedAccessKey'] }));
const OPTIONS = { args: ['--credentials', file], credentials: KEY, bearerToken: TOKEN };

function clientWith(server, Client, credentials) {
  return new Client({ ...server.config(), credentials });
}

scenario('SQS over the JSON protocol: the right key works, a wrong one is refused', async (server) => {
  const sqs = server.sqs();
  const { QueueUrl } = await sqs.send(new sqsSdk.CreateQueueCommand({ QueueName: 'js-signed' }));
  await sqs.send(new sqsSdk.SendMessageCommand({ QueueUrl, MessageBody: 'hi' }));
  const got = await sqs.send(new sqsSdk.ReceiveMessageCommand({ QueueUrl }));
  assert.equal(got.Messages[0].Body, 'hi');
  assert.ok(server.requests.every((r) => r.target && r.target.startsWith('AmazonSQS.')), 'the JSON protocol');
  const unknown = clientWith(server, sqsSdk.SQSClient, { ...KEY, accessKeyId: 'AKIDUNKNOWN' });
  assert.equal(await errorCode(unknown.send(new sqsSdk.ListQueuesCommand({}))), 'InvalidClientTokenId');
  const wrong = clientWith(server, sqsSdk.SQSClient, { ...KEY, secretAccessKey: 'wrong' });
  assert.equal(await errorCode(wrong.send(new sqsSdk.ListQueuesCommand({}))), 'SignatureDoesNotMatch');
}, OPTIONS);

scenario('SNS: the right key works, a wrong one is refused', async (server) => {
  const { TopicArn } = await server.sns().send(new snsSdk.CreateTopicCommand({ Name: 'js-signed' }));
  assert.ok(TopicArn.endsWith(':js-signed'));
  const unknown = clientWith(server, snsSdk.SNSClient, { ...KEY, accessKeyId: 'AKIDUNKNOWN' });
  assert.equal(await errorCode(unknown.send(new snsSdk.ListTopicsCommand({}))), 'InvalidClientTokenId');
  const wrong = clientWith(server, snsSdk.SNSClient, { ...KEY, secretAccessKey: 'wrong' });
  assert.equal(await errorCode(wrong.send(new snsSdk.ListTopicsCommand({}))), 'SignatureDoesNotMatch');
}, OPTIONS);

scenario('Service Bus: a known SAS key name sends and receives, an unknown one is refused', async (server) => {
  const { status, body } = await server.api('POST', '/servicebus/queues', { Name: 'sb-signed', Properties: {} });
  assert.equal(status, 201, JSON.stringify(body));
  const right = new ServiceBusClient(server.serviceBusConnectionString());
  try {
    await right.createSender('sb-signed').sendMessages({ body: 'in' });
    const got = await right.createReceiver('sb-signed', { receiveMode: 'receiveAndDelete' })
      .receiveMessages(1, { maxWaitTimeInMs: 2000 });
    assert.deepEqual(got.map((m) => m.body), ['in']);
  } finally {
    await right.close();
  }
  const wrong = new ServiceBusClient(server.serviceBusConnectionString('SomeoneElse'), { retryOptions: { maxRetries: 0 } });
  try {
    await assert.rejects(wrong.createSender('sb-signed').sendMessages({ body: 'refused' }),
                         (error) => /unauthori/i.test(`${error.code} ${error.message}`));
  } finally {
    await wrong.close();
  }
  const { body: queue } = await server.api('GET', '/queues/sb-signed');
  assert.equal(Number(queue.attributes.ApproximateNumberOfMessages), 0, 'the refused message never arrived');
}, OPTIONS);
