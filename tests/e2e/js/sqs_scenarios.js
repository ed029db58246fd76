// SPDX-License-Identifier: MIT
// SQS end to end with the AWS SDK for JavaScript v3 (SQS JSON protocol) against
// `relaydesk serve` (virtual clock): the scenarios of ../sqs_scenarios.py, with
// every check made on what the SDK returns to its caller. Each scenario also checks
// that the SDK spoke the JSON protocol (X-Amz-Target AmazonSQS.*, application/x-amz-json-1.0).
'use strict';
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const { scenario, errorCode, sqsSdk } = require('./relaydesk_harness');
const {
  CreateQueueCommand, GetQueueUrlCommand, SendMessageCommand, ReceiveMessageCommand, GetQueueAttributesCommand,
  DeleteMessageCommand, SendMessageBatchCommand, DeleteMessageBatchCommand, ListDeadLetterSourceQueuesCommand,
  StartMessageMoveTaskCommand, ListMessageMoveTasksCommand, ChangeMessageVisibilityCommand, ListQueuesCommand,
  TagQueueCommand, UntagQueueCommand, ListQueueTagsCommand, PurgeQueueCommand,
} = sqsSdk;

const md5 = (text) => crypto.createHash('md5').update(text, 'utf8').digest('hex');

function assertJsonProtocol(server) {
  const sqsRequests = server.requests.filter((request) => request.service === 'sqs');
  assert.ok(sqsRequests.length > 0, 'no SQS request was recorded');
  for (const request of sqsRequests) {
    assert.match(request.target || '', /^AmazonSQS\.[A-Za-z]+$/, 'every SQS request carries X-Amz-Target');
    assert.equal(request.contentType, 'application/x-amz-json-1.0');
  }
}

// sqsScenario: a scenario with an SQS client whose requests must all be JSON protocol.
function sqsScenario(name, body) {
  scenario(name, async (server) => {
    const sqs = server.sqs();
    await body(server, (command) => sqs.send(command));
    assertJsonProtocol(server);
  });
}

sqsScenario('standard round trip: attributes and digests as sent', async (server, send) => {
  const { QueueUrl: url } = await send(new CreateQueueCommand({ QueueName: 'orders' }));
  assert.ok(url.endsWith('/000000000000/orders'), url);
  assert.equal((await send(new GetQueueUrlCommand({ QueueName: 'orders' }))).QueueUrl, url);
  const sent = await send(new SendMessageCommand({
    QueueUrl: url, MessageBody: 'héllo wörld',
    MessageAttributes: {
      kind: { DataType: 'String', StringValue: 'new' },
      count: { DataType: 'Number', StringValue: '3' },
      blob: { DataType: 'Binary', BinaryValue: Uint8Array.from([0, 1]) },
    },
  }));
  assert.equal(sent.MD5OfMessageBody, md5('héllo wörld'));
  const got = await send(new ReceiveMessageCommand({
    QueueUrl: url, MessageAttributeNames: ['All'], AttributeNames: ['All'] }));
  assert.equal(got.Messages.length, 1);
  const [message] = got.Messages;
  assert.equal(message.Body, 'héllo wörld');
  assert.equal(message.MessageId, sent.MessageId);
  assert.equal(message.MD5OfMessageAttributes, sent.MD5OfMessageAttributes);
  assert.deepEqual(Array.from(message.MessageAttributes.blob.BinaryValue), [0, 1]);
  assert.equal(message.MessageAttributes.count.StringValue, '3');
  assert.equal(message.Attributes.ApproximateReceiveCount, '1');
  let attributes = (await send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['All'] }))).Attributes;
  assert.equal(attributes.ApproximateNumberOfMessagesNotVisible, '1');
  await send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: message.ReceiptHandle }));
  attributes = (await send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['All'] }))).Attributes;
  assert.equal(attributes.ApproximateNumberOfMessagesNotVisible, '0');
  assert.equal(attributes.ApproximateNumberOfMessages, '0');
});

sqsScenario('XML- and JSON-breaking characters come back byte for byte', async (server, send) => {
  const { QueueUrl: url } = await send(new CreateQueueCommand({ QueueName: 'chars' }));
  const body = 'a\r\nb\tc <&> "quoted" \u00e9 \u{1F600} ]]> {"json": [1]} \\';
  const sent = await send(new SendMessageCommand({ QueueUrl: url, MessageBody: body,
    MessageAttributes: { k: { DataType: 'String', StringValue: 'x\r<y>' } } }));
  assert.equal(sent.MD5OfMessageBody, md5(body));
  const [message] = (await send(new ReceiveMessageCommand({ QueueUrl: url, MessageAttributeNames: ['All'] }))).Messages;
  assert.equal(message.Body, body);
  assert.equal(message.MessageAttributes.k.StringValue, 'x\r<y>');
  assert.equal(await errorCode(send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'bad \x01' }))),
               'InvalidMessageContents');
});

sqsScenario('visibility timeout: the message returns after virtual time', async (server, send) => {
  const { QueueUrl: url } = await send(new CreateQueueCommand({ QueueName: 'work', Attributes: { VisibilityTimeout: '30' } }));
  await send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'job' }));
  const first = (await send(new ReceiveMessageCommand({ QueueUrl: url }))).Messages[0];
  assert.equal((await send(new ReceiveMessageCommand({ QueueUrl: url }))).Messages, undefined);
  await server.advance(29);
  assert.equal((await send(new ReceiveMessageCommand({ QueueUrl: url }))).Messages, undefined);
  await server.advance(1);
  const again = (await send(new ReceiveMessageCommand({ QueueUrl: url, AttributeNames: ['ApproximateReceiveCount'] }))).Messages[0];
  assert.equal(again.MessageId, first.MessageId);
  assert.equal(again.Attributes.ApproximateReceiveCount, '2');
});

sqsScenario('batches: one bad entry fails alone', async (server, send) => {
  const { QueueUrl: url } = await send(new CreateQueueCommand({ QueueName: 'batch' }));
  const reply = await send(new SendMessageBatchCommand({ QueueUrl: url, Entries: [
    { Id: 'a', MessageBody: 'one' }, { Id: 'b', MessageBody: 'two', DelaySeconds: 901 }, { Id: 'c', MessageBody: 'three' }] }));
  assert.deepEqual(reply.Successful.map((entry) => entry.Id).sort(), ['a', 'c']);
  assert.deepEqual(Object.fromEntries(reply.Successful.map((entry) => [entry.Id, entry.MD5OfMessageBody])),
                   { a: md5('one'), c: md5('three') });   // each entry its own body's
  assert.equal(reply.Failed.length, 1);
  assert.deepEqual([reply.Failed[0].Id, reply.Failed[0].SenderFault], ['b', true]);
  const messages = (await send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10 }))).Messages;
  assert.deepEqual(messages.map((m) => m.Body).sort(), ['one', 'three']);
  const deleted = await send(new DeleteMessageBatchCommand({ QueueUrl: url, Entries: [
    { Id: 'x', ReceiptHandle: messages[0].ReceiptHandle }, { Id: 'y', ReceiptHandle: 'garbage' }] }));
  assert.deepEqual(deleted.Successful.map((entry) => entry.Id), ['x']);
  assert.equal(deleted.Failed[0].Code, 'ReceiptHandleIsInvalid');
  assert.equal(await errorCode(send(new SendMessageBatchCommand({ QueueUrl: url, Entries: [
    { Id: 'same', MessageBody: '1' }, { Id: 'same', MessageBody: '2' }] }))),
               'AWS.SimpleQueueService.BatchEntryIdsNotDistinct');
});

sqsScenario('FIFO: order per group and gating', async (server, send) => {
  const { QueueUrl: url } = await send(new CreateQueueCommand({ QueueName: 'jobs.fifo',
    Attributes: { FifoQueue: 'true', ContentBasedDeduplication: 'true' } }));
  for (const group of ['g1', 'g2']) {
    for (let index = 0; index < 3; ++index) {
      await send(new SendMessageCommand({ QueueUrl: url, MessageBody: `${group}-${index}`, MessageGroupId: group }));
    }
  }
  const bodies = async (max) => ((await send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: max }))).Messages || []);
  const first = await bodies(2);
  assert.deepEqual(first.map((m) => m.Body), ['g1-0', 'g1-1']);
  // g1 is gated while its messages are in flight: the rest comes from g2, in order.
  assert.deepEqual((await bodies(10)).map((m) => m.Body), ['g2-0', 'g2-1', 'g2-2']);
  assert.deepEqual(await bodies(10), []);
  for (const message of first) await send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: message.ReceiptHandle }));
  assert.deepEqual((await bodies(10)).map((m) => m.Body), ['g1-2']);
});

sqsScenario('FIFO: deduplication by id and by content', async (server, send) => {
  const { QueueUrl: url } = await send(new CreateQueueCommand({ QueueName: 'dedup.fifo',
    Attributes: { FifoQueue: 'true', ContentBasedDeduplication: 'true' } }));
  const message = (fields) => send(new SendMessageCommand({ QueueUrl: url, MessageGroupId: 'g', ...fields }));
  const a = await message({ MessageBody: 'same' });
  const b = await message({ MessageBody: 'same' });
  assert.equal(a.MessageId, b.MessageId);
  const c = await message({ MessageBody: 'other', MessageDeduplicationId: 'd1' });
  const d = await message({ MessageBody: 'different body', MessageDeduplicationId: 'd1' });
  assert.equal(c.MessageId, d.MessageId);
  assert.ok(BigInt(a.SequenceNumber) < BigInt(c.SequenceNumber));
  const received = (await send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10 }))).Messages;
  assert.deepEqual(received.map((m) => m.Body), ['same', 'other']);
  await server.advance(301);
  const e = await message({ MessageBody: 'same' });
  assert.notEqual(e.MessageId, a.MessageId);
});

sqsScenario('FIFO: ReceiveRequestAttemptId returns the same batch', async (server, send) => {
  const { QueueUrl: url } = await send(new CreateQueueCommand({ QueueName: 'attempt.fifo',
    Attributes: { FifoQueue: 'true', ContentBasedDeduplication: 'true' } }));
  for (let index = 0; index < 3; ++index) {
    await send(new SendMessageCommand({ QueueUrl: url, MessageBody: `m${index}`, MessageGroupId: `g${index}` }));
  }
  const receive = () => send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 2, ReceiveRequestAttemptId: 'try-1' }));
  const first = await receive();
  const retry = await receive();
  assert.equal(first.Messages.length, 2);
  assert.deepEqual(retry.Messages.map((m) => m.ReceiptHandle), first.Messages.map((m) => m.ReceiptHandle));
});

sqsScenario('dead letter after maxReceiveCount, moved back by a move task', async (server, send) => {
  const { QueueUrl: dlq } = await send(new CreateQueueCommand({ QueueName: 'dead' }));
  const dlqArn = (await send(new GetQueueAttributesCommand({ QueueUrl: dlq, AttributeNames: ['QueueArn'] }))).Attributes.QueueArn;
  const { QueueUrl: url } = await send(new CreateQueueCommand({ QueueName: 'source', Attributes: {
    VisibilityTimeout: '10', RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: '2' }) } }));
  await send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'poison' }));
  for (let attempt = 0; attempt < 2; ++attempt) {
    assert.equal((await send(new ReceiveMessageCommand({ QueueUrl: url }))).Messages.length, 1);
    await server.advance(10);
  }
  assert.equal((await send(new ReceiveMessageCommand({ QueueUrl: url }))).Messages, undefined);
  assert.deepEqual((await send(new ListDeadLetterSourceQueuesCommand({ QueueUrl: dlq }))).queueUrls, [url]);
  assert.equal((await send(new ReceiveMessageCommand({ QueueUrl: dlq }))).Messages[0].Body, 'poison');
  await server.advance(31);
  const { TaskHandle: handle } = await send(new StartMessageMoveTaskCommand({ SourceArn: dlqArn }));
  assert.ok(handle);
  const tasks = (await send(new ListMessageMoveTasksCommand({ SourceArn: dlqArn }))).Results;
  assert.equal(tasks[0].Status, 'COMPLETED');
  assert.equal((await send(new ReceiveMessageCommand({ QueueUrl: url }))).Messages[0].Body, 'poison');
});

sqsScenario('long poll returns as soon as a message arrives', async (server, send) => {
  const { QueueUrl: url } = await send(new CreateQueueCommand({ QueueName: 'poll' }));
  const waiting = server.sqs().send(new ReceiveMessageCommand({ QueueUrl: url, WaitTimeSeconds: 20 }));
  // The poll waits on the broker (it found nothing) and the virtual clock
  // does not move: only the send can end this wait.
  await server.awaitWaitingReceives('poll', 1);
  await send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'wake up' }));
  assert.equal((await waiting).Messages[0].Body, 'wake up');
});

sqsScenario('long poll ends empty at the virtual deadline', async (server, send) => {
  const { QueueUrl: url } = await send(new CreateQueueCommand({ QueueName: 'quiet' }));
  const waiting = server.sqs().send(new ReceiveMessageCommand({ QueueUrl: url, WaitTimeSeconds: 20 }));
  await server.awaitWaitingReceives('quiet', 1);
  // An advance answers once everything due has happened.
  await server.advance(19.999);
  assert.equal(await server.waitingReceives('quiet'), 1, 'ended before its deadline');
  await server.advance(0.001); // its deadline, 20 s of clock time after it began
  assert.equal(await server.waitingReceives('quiet'), 0, 'still waiting after its deadline');
  assert.equal((await waiting).Messages, undefined);
});

sqsScenario('errors as the SDK surfaces them', async (server, send) => {
  const missing = `${server.endpoint}/000000000000/missing`;
  assert.ok(['AWS.SimpleQueueService.NonExistentQueue', 'QueueDoesNotExist'].includes(
    await errorCode(send(new SendMessageCommand({ QueueUrl: missing, MessageBody: 'x' })))));
  const { QueueUrl: url } = await send(new CreateQueueCommand({ QueueName: 'limits' }));
  assert.equal(await errorCode(send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 11 }))),
               'InvalidParameterValue');
  assert.equal(await errorCode(send(new ChangeMessageVisibilityCommand({ QueueUrl: url, ReceiptHandle: 'nonsense',
    VisibilityTimeout: 5 }))), 'ReceiptHandleIsInvalid');
  assert.equal(await errorCode(send(new CreateQueueCommand({ QueueName: 'bad name!' }))), 'InvalidParameterValue');
  assert.equal(await errorCode(send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'x'.repeat(256 * 1024 + 1) }))),
               'InvalidParameterValue');
  // None of it changed anything.
  const attributes = (await send(new GetQueueAttributesCommand({ QueueUrl: url,
    AttributeNames: ['ApproximateNumberOfMessages'] }))).Attributes;
  assert.equal(attributes.ApproximateNumberOfMessages, '0');
  assert.deepEqual((await send(new ListQueuesCommand({}))).QueueUrls, [url]);
});

sqsScenario('purge and tags', async (server, send) => {
  const { QueueUrl: url } = await send(new CreateQueueCommand({ QueueName: 'tagged', tags: { team: 'core' } }));
  await send(new TagQueueCommand({ QueueUrl: url, Tags: { env: 'dev' } }));
  assert.deepEqual((await send(new ListQueueTagsCommand({ QueueUrl: url }))).Tags, { team: 'core', env: 'dev' });
  await send(new UntagQueueCommand({ QueueUrl: url, TagKeys: ['team'] }));
  assert.deepEqual((await send(new ListQueueTagsCommand({ QueueUrl: url }))).Tags, { env: 'dev' });
  await send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'x' }));
  await send(new PurgeQueueCommand({ QueueUrl: url }));
  assert.equal(await errorCode(send(new PurgeQueueCommand({ QueueUrl: url }))),
               'AWS.SimpleQueueService.PurgeQueueInProgress');
  assert.equal((await send(new ReceiveMessageCommand({ QueueUrl: url }))).Messages, undefined);
});
