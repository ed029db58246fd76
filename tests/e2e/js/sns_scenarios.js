// SPDX-License-Identifier: MIT
// SNS end to end with the AWS SDK for JavaScript v3 against `relaydesk serve` (virtual clock):
// the scenarios of ../sns_scenarios.py — topics, fan-out to SQS (raw and envelope) with a
// filter policy, delivery policies and their errors. SNS speaks the query protocol; the SQS
// client beside it speaks JSON.
'use strict';
const assert = require('node:assert/strict');
const { scenario, errorCode, sqsSdk, snsSdk } = require('./relaydesk_harness');
const { CreateQueueCommand, GetQueueAttributesCommand, ReceiveMessageCommand } = sqsSdk;
const {
  CreateTopicCommand, SubscribeCommand, PublishCommand, SetSubscriptionAttributesCommand,
  GetSubscriptionAttributesCommand, SetTopicAttributesCommand, GetTopicAttributesCommand, ListTopicsCommand,
  ListTagsForResourceCommand, DeleteTopicCommand, PublishBatchCommand,
} = snsSdk;

function snsScenario(name, body) {
  scenario(name, async (server) => {
    const sqs = server.sqs();
    const sns = server.sns();
    const helpers = {
      sqs: (command) => sqs.send(command),
      sns: (command) => sns.send(command),
      async queue(name, attributes) {
        const { QueueUrl: url } = await sqs.send(new CreateQueueCommand({ QueueName: name, Attributes: attributes }));
        const reply = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn'] }));
        return { url, arn: reply.Attributes.QueueArn };
      },
      async messages(url) {
        const reply = await sqs.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10,
                                                                 MessageAttributeNames: ['All'] }));
        return reply.Messages || [];
      },
    };
    await body(server, helpers);
  });
}

snsScenario('fan-out raw and envelope with a filter policy', async (server, { sns, queue, messages }) => {
  const { TopicArn: topic } = await sns(new CreateTopicCommand({ Name: 'orders' }));
  const raw = await queue('raw');
  const wrapped = await queue('wrapped');
  await sns(new SubscribeCommand({ TopicArn: topic, Protocol: 'sqs', Endpoint: raw.arn,
    Attributes: { RawMessageDelivery: 'true', FilterPolicy: JSON.stringify({ kind: ['paid'] }) } }));
  await sns(new SubscribeCommand({ TopicArn: topic, Protocol: 'sqs', Endpoint: wrapped.arn }));
  await sns(new PublishCommand({ TopicArn: topic, Message: 'first', Subject: 's',
    MessageAttributes: { kind: { DataType: 'String', StringValue: 'paid' } } }));
  await sns(new PublishCommand({ TopicArn: topic, Message: 'second',
    MessageAttributes: { kind: { DataType: 'String', StringValue: 'refunded' } } }));
  const rawMessages = await messages(raw.url);
  assert.deepEqual(rawMessages.map((m) => m.Body), ['first']);
  assert.equal(rawMessages[0].MessageAttributes.kind.StringValue, 'paid');
  const envelopes = (await messages(wrapped.url)).map((m) => JSON.parse(m.Body));
  assert.deepEqual(envelopes.map((e) => e.Message).sort(), ['first', 'second']);
  const first = envelopes.find((e) => e.Message === 'first');
  assert.deepEqual([first.Type, first.TopicArn, first.Subject], ['Notification', topic, 's']);
  assert.deepEqual(first.MessageAttributes.kind, { Type: 'String', Value: 'paid' });
});

snsScenario('subscription attributes: the effective delivery policy', async (server, { sns }) => {
  const { TopicArn: topic } = await sns(new CreateTopicCommand({ Name: 'hooks' }));
  const { SubscriptionArn: arn } = await sns(new SubscribeCommand({ TopicArn: topic, Protocol: 'http',
    Endpoint: 'http://127.0.0.1:9/hook', ReturnSubscriptionArn: true }));
  const policy = { healthyRetryPolicy: { numRetries: 5, minDelayTarget: 2, maxDelayTarget: 30, backoffFunction: 'linear' } };
  await sns(new SetSubscriptionAttributesCommand({ SubscriptionArn: arn, AttributeName: 'DeliveryPolicy',
                                                   AttributeValue: JSON.stringify(policy) }));
  const { Attributes: attributes } = await sns(new GetSubscriptionAttributesCommand({ SubscriptionArn: arn }));
  assert.deepEqual(JSON.parse(attributes.DeliveryPolicy), policy);
  // In the shape AWS returns it: the topic form, for the subscription's protocol.
  const effective = JSON.parse(attributes.EffectiveDeliveryPolicy).http.defaultHealthyRetryPolicy;
  assert.deepEqual([effective.numRetries, effective.minDelayTarget, effective.maxDelayTarget], [5, 2, 30]);
  assert.equal(effective.backoffFunction, 'linear');
  assert.equal(attributes.PendingConfirmation, 'true');
});

snsScenario('an invalid delivery policy is refused naming the field', async (server, { sns }) => {
  const { TopicArn: topic } = await sns(new CreateTopicCommand({ Name: 'strict' }));
  const bad = { http: { defaultHealthyRetryPolicy: { numRetries: 101, minDelayTarget: 1, maxDelayTarget: 2 } } };
  let error = null;
  try {
    await sns(new SetTopicAttributesCommand({ TopicArn: topic, AttributeName: 'DeliveryPolicy',
                                              AttributeValue: JSON.stringify(bad) }));
  } catch (caught) {
    error = caught;
  }
  assert.notEqual(error, null, 'the invalid policy was accepted');
  assert.equal(error.name, 'InvalidParameterException');
  assert.ok(error.message.startsWith('Invalid parameter: Attributes Reason: DeliveryPolicy: '), error.message);
  assert.ok(error.message.includes('numRetries'), error.message);
  const { Attributes: attributes } = await sns(new GetTopicAttributesCommand({ TopicArn: topic }));
  assert.equal(attributes.DeliveryPolicy, undefined);
});

snsScenario('topics: list, tags, delete and not found', async (server, { sns }) => {
  const arns = [];
  for (let index = 0; index < 3; ++index) {
    arns.push((await sns(new CreateTopicCommand({ Name: `t${index}`, Tags: [{ Key: 'n', Value: String(index) }] }))).TopicArn);
  }
  const listed = (await sns(new ListTopicsCommand({}))).Topics.map((t) => t.TopicArn);
  assert.deepEqual(listed.sort(), [...arns].sort());
  assert.deepEqual((await sns(new ListTagsForResourceCommand({ ResourceArn: arns[1] }))).Tags, [{ Key: 'n', Value: '1' }]);
  await sns(new DeleteTopicCommand({ TopicArn: arns[0] }));
  assert.ok(['NotFound', 'NotFoundException'].includes(
    await errorCode(sns(new GetTopicAttributesCommand({ TopicArn: arns[0] })))));
});

snsScenario('publish batch, FIFO topic to FIFO queue', async (server, { sns, queue, messages }) => {
  const { TopicArn: topic } = await sns(new CreateTopicCommand({ Name: 'events.fifo',
    Attributes: { FifoTopic: 'true', ContentBasedDeduplication: 'true' } }));
  const events = await queue('events.fifo', { FifoQueue: 'true' });
  await sns(new SubscribeCommand({ TopicArn: topic, Protocol: 'sqs', Endpoint: events.arn,
                                   Attributes: { RawMessageDelivery: 'true' } }));
  const reply = await sns(new PublishBatchCommand({ TopicArn: topic, PublishBatchRequestEntries: [
    { Id: 'a', Message: 'one', MessageGroupId: 'g' }, { Id: 'b', Message: 'two', MessageGroupId: 'g' },
    { Id: 'c', Message: 'three' }] }));
  assert.deepEqual(reply.Successful.map((e) => e.Id).sort(), ['a', 'b']);
  assert.deepEqual(reply.Failed.map((e) => e.Id), ['c']);
  assert.deepEqual((await messages(events.url)).map((m) => m.Body), ['one', 'two']);
});
