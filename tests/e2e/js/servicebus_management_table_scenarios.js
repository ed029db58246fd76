// SPDX-License-Identifier: MIT
// The shared Service Bus management table (../servicebus_management_scenarios.json) with the
// unchanged ServiceBusAdministrationClient of @azure/service-bus 7.9.5 over HTTPS (the local CA
// trusted through NODE_EXTRA_CA_CERTS), as the Python and Java administration clients run it
// (docs/harness.md "Service Bus management"); this file only says how each step is done with
// this SDK. The scenarios particular to this SDK are in servicebus_management_scenarios.js.
'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { scenario } = require('./relaydesk_harness');
const { adminClient, all, refusal, runTrustingLocalCa } = require('./servicebus_management_client');
const { ServiceBusClient } = require('@azure/service-bus');

runTrustingLocalCa();

const TABLE = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'servicebus_management_scenarios.json'), 'utf8'));
const STATUS = { alreadyExists: 409, notFound: 404, badRequest: 400, unauthorized: 401 };
const KIND = /^(?:create|get|update|delete|list)?(queue|topic|subscription|rule)s?(?:Exists|Runtime)?$/i;

// A rule's filter or action as the table writes it.
function rulePart(part) {
  if (!part || part.sqlExpression === undefined && part.subject === undefined) return undefined;
  return part.subject !== undefined ? { subject: part.subject } : { sql: part.sqlExpression };
}

function facts(model, expected) {
  return Object.fromEntries(Object.keys(expected).map((field) => [field,
    field === 'filter' || field === 'action' ? rulePart(model[field]) : model[field]]));
}

class Run {
  constructor(server, key) {
    Object.assign(this, { server, key, topics: new Set() });
  }

  async management(step) {
    const admin = adminClient(this.server, step.key || this.key);
    if (step.op === 'namespace') return admin.getNamespaceProperties();
    const word = KIND.exec(step.op)[1].toLowerCase();
    const kind = word[0].toUpperCase() + word.slice(1);   // Queue, Topic, Subscription, Rule
    const at = [step.topic, step.subscription, step.name].filter((part) => part !== undefined);
    const filter = step.filter && (step.filter.subject !== undefined ? { subject: step.filter.subject }
                                                                      : { sqlExpression: step.filter.sql });
    if (step.op.startsWith('create')) {
      if (kind === 'Topic') this.topics.add(step.name);
      if (kind === 'Rule') return admin.createRule(...at, filter, step.action && { sqlExpression: step.action.sql });
      return admin[`create${kind}`](...at, step.options || {});
    }
    if (step.op.startsWith('update')) {
      const entity = await admin[`get${kind}`](...at);
      if (kind === 'Rule') return admin.updateRule(step.topic, step.subscription, { ...entity, filter });
      return admin[`update${kind}`]({ ...entity, ...step.set });   // sends every property back, as read
    }
    if (step.op.startsWith('list')) {
      const items = admin[`list${kind}s`](...at);
      const name = (item) => item.subscriptionName && kind === 'Subscription' ? item.subscriptionName : item.name;
      if (step.pageSize === undefined) return (await all(items)).map(name);
      return (await all(items.byPage({ maxPageSize: step.pageSize }))).map((page) => page.map(name));
    }
    if (step.op.endsWith('Exists')) return admin[`${word}Exists`](...at);
    if (step.op.endsWith('Runtime')) return admin[`get${kind}RuntimeProperties`](...at);
    return admin[`${step.op.startsWith('get') ? 'get' : 'delete'}${kind}`](...at);
  }

  async amqp(step) {
    const client = new ServiceBusClient(this.server.serviceBusConnectionString());
    try {
      if (step.op === 'send') {
        const sender = client.createSender(step.entity);
        await sender.sendMessages(step.messages.map((m) => (typeof m === 'string' ? { body: m } : m)));
        return sender.close();
      }
      const options = { receiveMode: 'receiveAndDelete' };
      const receiver = step.subscription === undefined ? client.createReceiver(step.entity, options)
                                                       : client.createReceiver(step.entity, step.subscription, options);
      const got = [];
      while (got.length < step.expect.length) {
        const batch = await receiver.receiveMessages(step.max, { maxWaitTimeInMs: 2000 });
        got.push(...batch.map((m) => m.body));
        if (batch.length === 0) break;
      }
      await receiver.close();
      return got;
    } finally {
      await client.close();
    }
  }

  async run(step) {
    const act = () => (step.op === 'send' || step.op === 'receive' ? this.amqp(step) : this.management(step));
    if (step.error) {
      const refused = await refusal(act());
      assert.equal(refused.statusCode, STATUS[step.error], refused.message);
      if (step.messageHas) assert.ok(refused.message.includes(step.messageHas), refused.message);
      return;
    }
    const got = await act();
    if (step.expect === undefined) return;
    const isFields = typeof step.expect === 'object' && !Array.isArray(step.expect);
    assert.deepEqual(isFields ? facts(got, step.expect) : got, step.expect);
  }
}

for (const each of TABLE.scenarios) {
  if (each.skip && each.skip.javascript) continue;
  const keys = each.sharedAccessKeys;
  let serverOptions = {};
  if (keys) {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'relaydesk-management-'));
    process.on('exit', () => fs.rmSync(folder, { recursive: true, force: true }));
    fs.writeFileSync(path.join(folder, 'credentials.json'), JSON.stringify({ sharedAccessKeys: keys }));
    serverOptions = { args: ['--credentials', path.join(folder, 'credentials.json')] };
  }
  scenario(each.name, async (server) => {
    const run = new Run(server, keys ? Object.values(keys)[0] : undefined);
    for (const [number, step] of each.steps.entries()) {
      try {
        await run.run(step);
      } catch (error) {
        error.message = `step ${number}: ${JSON.stringify(step)}\n${error.message}`;
        throw error;
      }
    }
  }, serverOptions);
}
