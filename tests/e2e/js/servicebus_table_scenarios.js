// SPDX-License-Identifier: MIT
// The shared Service Bus scenario table (../servicebus_sdk_scenarios.json) with the unchanged
// @azure/service-bus SDK, as the Python and Java SDKs run it (docs/harness.md "Service Bus SDKs");
// this file only says how each step is done with this SDK. The scenarios particular to this SDK
// are in servicebus_scenarios.js.
'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { scenario } = require('./relaydesk_harness');
const { ServiceBusClient } = require('@azure/service-bus');

const TABLE = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'servicebus_sdk_scenarios.json'), 'utf8'));
const WAIT_MS = 2000;      // a receive that expects messages
const NO_WAIT_MS = 300;    // a receive that expects none

function messageOf(spec) {
  const message = { body: spec.body };
  for (const field of ['subject', 'messageId', 'sessionId', 'applicationProperties'])
    if (spec[field] !== undefined) message[field] = spec[field];
  if (spec.timeToLiveSeconds !== undefined) message.timeToLive = spec.timeToLiveSeconds * 1000;
  return message;
}

// The fields of `message` that `expected` names.
function factsOf(message, expected) {
  return Object.fromEntries(Object.keys(expected).map((field) => [field, message[field]]));
}

class Run {
  constructor(server, client) {
    Object.assign(this, { server, client, receivers: new Map(), kept: new Map() });
  }

  // Peeks have receivers of their own: a peek without a sequence number goes on after the last one.
  async receiver(step) {
    const key = JSON.stringify([step.op === 'peek', step.entity, step.subscription, step.subQueue, step.session, step.mode]);
    if (!this.receivers.has(key)) {
      const options = { receiveMode: step.mode === 'receiveAndDelete' ? 'receiveAndDelete' : 'peekLock' };
      if (step.subQueue === 'deadLetter') options.subQueueType = 'deadLetter';
      const source = step.subscription === undefined ? [step.entity] : [step.entity, step.subscription];
      let receiver;
      if (step.session === 'next')
        receiver = await this.client.acceptNextSession(...source, { ...options, maxAutoLockRenewalDurationInMs: 0 });
      else if (step.session !== undefined)
        receiver = await this.client.acceptSession(...source, step.session, { ...options, maxAutoLockRenewalDurationInMs: 0 });
      else
        receiver = this.client.createReceiver(...source, options);
      this.receivers.set(key, receiver);
    }
    return this.receivers.get(key);
  }

  messages(reference) {
    const [, name, index] = reference.match(/^([^[]+)(?:\[(\d+)\])?$/);
    const kept = this.kept.get(name);
    return index === undefined ? kept : [kept[Number(index)]];
  }

  keep(step, receiver, got) {
    assert.deepEqual(got.map((m, i) => factsOf(m, step.expect[i] || { body: '' })), step.expect);
    if (step.as) this.kept.set(step.as, got.map((message) => ({ receiver, message })));
  }

  async receive(step) {
    const receiver = await this.receiver(step);
    const got = [];
    for (;;) {   // the SDK may hand over fewer than are there in one call
      const batch = await receiver.receiveMessages(step.max - got.length,
                                                   { maxWaitTimeInMs: step.expect.length ? WAIT_MS : NO_WAIT_MS });
      got.push(...batch);
      if (batch.length === 0 || got.length >= step.expect.length) break;
    }
    this.keep(step, receiver, got);
  }

  async run(step) {
    switch (step.op) {
      case 'send': return this.client.createSender(step.entity).sendMessages(step.messages.map(messageOf));
      case 'schedule': {
        const { nowMs } = (await this.server.api('GET', '/clock')).body;
        const sequences = await this.client.createSender(step.entity)
          .scheduleMessages(step.messages.map(messageOf), new Date(nowMs + step.inSeconds * 1000));
        if (step.as) this.kept.set(step.as, sequences.map((sequence) => ({ sequence })));
        return undefined;
      }
      case 'cancelScheduled':
        return this.client.createSender(step.entity).cancelScheduledMessages(this.messages(step.sequences).map(({ sequence }) => sequence));
      case 'renewLock':
        for (const { receiver, message } of this.messages(step.messages)) {
          const before = message.lockedUntilUtc.getTime();
          assert.equal((await receiver.renewMessageLock(message)).getTime() - before, step.extendsBySeconds * 1000);
        }
        return undefined;
      case 'receive': return this.receive(step);
      case 'peek': {
        const receiver = await this.receiver(step);
        const options = step.fromSequenceOf ? { fromSequenceNumber: this.messages(step.fromSequenceOf)[0].message.sequenceNumber } : {};
        return this.keep(step, receiver, await receiver.peekMessages(step.max, options));
      }
      case 'receiveDeferred': {
        const receiver = await this.receiver(step);
        const sequence = this.messages(step.sequenceOf).map(({ message }) => message.sequenceNumber);
        return this.keep(step, receiver, await receiver.receiveDeferredMessages(sequence));
      }
      case 'complete': case 'abandon': case 'defer': case 'deadLetter':
        for (const { receiver, message } of this.messages(step.messages)) {
          if (step.op === 'deadLetter')
            await receiver.deadLetterMessage(message, { deadLetterReason: step.reason, deadLetterErrorDescription: step.description });
          else
            await receiver[`${step.op}Message`](message);
        }
        return undefined;
      case 'sessionState': return assert.equal((await (await this.receiver(step)).getSessionState()) ?? null, step.expect);
      case 'setSessionState': return (await this.receiver(step)).setSessionState(step.state);
      case 'createRule':
        return this.client.createRuleManager(step.entity, step.subscription)
          .createRule(step.name, step.correlation ? { subject: step.correlation.subject } : { sqlExpression: step.sql });
      case 'deleteRule': return this.client.createRuleManager(step.entity, step.subscription).deleteRule(step.name);
      case 'rules': {
        const names = [];
        for await (const rule of this.client.createRuleManager(step.entity, step.subscription).listRules()) names.push(rule.name);
        return assert.deepEqual(names, step.expect);
      }
      case 'advance': return this.server.advance(step.seconds);
      case 'depth': {
        const { status, body } = await this.server.api('GET', `/queues/${encodeURIComponent(step.entity)}`);
        assert.equal(status, 200, JSON.stringify(body));
        return assert.deepEqual({ available: Number(body.attributes.ApproximateNumberOfMessages),
                                  locked: Number(body.attributes.ApproximateNumberOfMessagesNotVisible) }, step.expect);
      }
      default: throw new Error(`unknown step ${step.op}`);
    }
  }
}

for (const each of TABLE.scenarios) {
  if (each.skip && each.skip.js) continue;
  scenario(`shared table: ${each.name}`, async (server) => {
    const entities = each.entities || {};
    for (const kind of ['queues', 'topics']) {
      for (const body of entities[kind] || []) {
        const { status, body: reply } = await server.api('POST', `/servicebus/${kind}`, body);
        assert.equal(status, 201, JSON.stringify(reply));
      }
    }
    const client = new ServiceBusClient(server.serviceBusConnectionString());
    const run = new Run(server, client);
    try {
      for (const [number, step] of each.steps.entries()) {
        try {
          if (step.error === undefined) await run.run(step);
          else await assert.rejects(run.run(step), (error) => error.code === step.error);
        } catch (error) {
          error.message = `step ${number}: ${JSON.stringify(step)}\n${error.message}`;
          throw error;
        }
      }
    } finally {
      await client.close();
    }
  });
}
