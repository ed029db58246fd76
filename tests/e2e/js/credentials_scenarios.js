// SPDX-License-Identifier: MIT
// `relaydesk serve --credentials FILE` with the AWS SDK for JavaScript v3 (SQS JSON protocol,
// SNS query protocol; it signs the payload hash and sends it as x-amz-content-sha256) and
// @azure/service-bus (the Shared Access Signature of its $cbs put-token): the right key works;
// an unknown key id, a wrong secret, a body changed after signing, a wrong SAS key name or key
// value, an expired token and a bare key name are refused (docs/configuration.md "Credentials").
'use strict';
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { scenario, errorCode, sqsSdk, snsSdk } = require('./relaydesk_harness');
const { ServiceBusClient } = require('@azure/service-bus');

const KEY = { accessKeyId: 'AKIDRELAYDESKJS01', secretAccessKey: 'js-secret-5hT/9q+Wm2' };
const TOKEN = 'js-bearer-token-81c2';
const SAS_KEY = 'js-sas-key-Q2m7Zr0p';
const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'relaydesk-credentials-'));
const file = path.join(folder, 'credentials.json');
fs.writeFileSync(file, JSON.stringify({ accessKeys: { [KEY.accessKeyId]: KEY.secretAccessKey }, bearerTokens: [TOKEN],
                                        sharedAccessKeys: { RootManageSharedAccessKey: SAS_KEY } }));
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

scenario('SQS: a body changed after the SDK signed its hash is refused and changes nothing', async (server) => {
  const sqs = server.sqs();
  // after the signature, the body is swapped for one of the same length naming another queue
  sqs.middlewareStack.addRelativeTo((next) => async (args) => {
    args.request.body = args.request.body.replace('js-signed-a', 'js-swapped1');
    return next(args);
  }, { relation: 'after', toMiddleware: 'httpSigningMiddleware', name: 'swapBodyAfterSigning' });
  assert.equal(await errorCode(sqs.send(new sqsSdk.CreateQueueCommand({ QueueName: 'js-signed-a' }))),
               'XAmzContentSHA256Mismatch');
  const { QueueUrls } = await server.sqs().send(new sqsSdk.ListQueuesCommand({}));
  assert.deepEqual(QueueUrls || [], [], 'no queue was created');
  assert.ok(server.requests.some((r) => r.target === 'AmazonSQS.CreateQueue'), 'the signed request went out');
}, OPTIONS);

// A send with `connectionString` fails with the broker's put-token refusal, `words` in its description.
async function refusedServiceBus(connectionString, words) {
  const client = new ServiceBusClient(connectionString, { retryOptions: { maxRetries: 0 } });
  try {
    await assert.rejects(client.createSender('sb-signed').sendMessages({ body: 'refused' }),
                         (error) => words.test(error.message));
  } finally {
    await client.close();
  }
}

scenario('Service Bus: the right SAS key sends and receives; a wrong name, key, expiry or bare name is refused', async (server) => {
  const { status, body } = await server.api('POST', '/servicebus/queues', { Name: 'sb-signed', Properties: {} });
  assert.equal(status, 201, JSON.stringify(body));
  const right = new ServiceBusClient(server.serviceBusConnectionString('RootManageSharedAccessKey', SAS_KEY));
  try {
    await right.createSender('sb-signed').sendMessages({ body: 'in' });
    const got = await right.createReceiver('sb-signed', { receiveMode: 'receiveAndDelete' })
      .receiveMessages(1, { maxWaitTimeInMs: 2000 });
    assert.deepEqual(got.map((m) => m.body), ['in']);
  } finally {
    await right.close();
  }
  await refusedServiceBus(server.serviceBusConnectionString('SomeoneElse', SAS_KEY), /key name 'SomeoneElse' is not one/);
  await refusedServiceBus(server.serviceBusConnectionString('RootManageSharedAccessKey', 'SAS_KEY_VALUE'),
                          /^InvalidSignature: /);
  // a token signed with the right key that expired in 1970 (se=1), and a bare key name
  const sr = encodeURIComponent(`sb://localhost:${server.amqpPort}/`);
  const sig = encodeURIComponent(crypto.createHmac('sha256', SAS_KEY).update(`${sr}\n1`).digest('base64'));
  await refusedServiceBus(server.serviceBusSignatureConnectionString(
    `SharedAccessSignature sr=${sr}&sig=${sig}&se=1&skn=RootManageSharedAccessKey`), /^ExpiredToken: .*1970-01-01T00:00:01Z/);
  await refusedServiceBus(server.serviceBusSignatureConnectionString('SharedAccessSignature skn=RootManageSharedAccessKey'),
                          /not a Shared Access Signature/);
  const { body: queue } = await server.api('GET', '/queues/sb-signed');
  assert.equal(Number(queue.attributes.ApproximateNumberOfMessages), 0, 'no refused message arrived');
  assert.ok(!server.errors.includes(SAS_KEY), 'the key is never logged');
}, OPTIONS);
