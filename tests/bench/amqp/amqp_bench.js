// SPDX-License-Identifier: MIT
// Benchmark (not a test): Service Bus over AMQP with the real SDK,
// @azure/service-bus from tests/e2e/js (run `npm ci` there in the build tree).
//
//   NODE_PATH=BUILD/tests/e2e/js/node_modules node tests/bench/amqp/amqp_bench.js RELAYDESK [SECONDS=5] [HELD=1000]
//
// Starts `RELAYDESK serve` on a new database (durable: WAL, synchronous=FULL)
// and prints: sends/s with 1 and 16 connections (each sending one message at a
// time, awaiting its acceptance), receive+complete/s with 1 and 16, and HELD
// connections opened at once with the serve process's resident size before
// and after (memory per connection).
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { ServiceBusClient } = require('@azure/service-bus');

const [binary, secondsArg, heldArg] = process.argv.slice(2);
const seconds = Number(secondsArg || 5);
const held = Number(heldArg || 1000);

function start(database) {
  const child = spawn(binary, ['serve', '--port', '0', '--amqp-port', '0', '--amqps-port', 'off', '--sb-management-port', '0', '--db', database],
                      { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const amqp = output.match(/listening on amqp:\/\/[^:]+:(\d+)/);
      const http = output.match(/listening on (http:\/\/\S+)/);
      if (amqp && http) resolve({ child, amqpPort: Number(amqp[1]), http: http[1] });
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}`)));
  });
}

const connectionString = (port) =>
  `Endpoint=sb://localhost:${port};SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=SAS_KEY_VALUE;UseDevelopmentEmulator=true`;

function residentMb(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(status.match(/VmRSS:\s+(\d+)/)[1]) / 1024;
}

async function sends(port, queue, connections) {
  const clients = Array.from({ length: connections }, () => new ServiceBusClient(connectionString(port)));
  const senders = clients.map((client) => client.createSender(queue));
  await Promise.all(senders.map((sender) => sender.sendMessages({ body: 'warm-up' })));
  let count = 0;
  const deadline = Date.now() + seconds * 1000;
  const started = Date.now();
  await Promise.all(senders.map(async (sender, i) => {
    while (Date.now() < deadline) {
      await sender.sendMessages({ body: `m-${i}-${count}` });
      count += 1;
    }
  }));
  const rate = count / ((Date.now() - started) / 1000);
  await Promise.all(clients.map((client) => client.close()));
  return rate;
}

async function receives(port, queue, connections) {
  const clients = Array.from({ length: connections }, () => new ServiceBusClient(connectionString(port)));
  let count = 0;
  const started = Date.now();
  await Promise.all(clients.map(async (client) => {
    const receiver = client.createReceiver(queue);
    for (;;) {
      const got = await receiver.receiveMessages(10, { maxWaitTimeInMs: 500 });
      if (got.length === 0) return;
      for (const message of got) await receiver.completeMessage(message);
      count += got.length;
    }
  }));
  const rate = count / ((Date.now() - started - 500) / 1000);
  await Promise.all(clients.map((client) => client.close()));
  return { rate, count };
}

async function main() {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'relaydesk-amqp-bench-'));
  const server = await start(path.join(folder, 'bench.db'));
  try {
    const api = (p, body) => fetch(server.http + '/api/v1' + p, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    for (const name of ['bench.one', 'bench.many'])
      await api('/servicebus/queues', { Name: name, Properties: { LockDuration: 'PT5M', MaxDeliveryCount: 10 } });
    console.log(`load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    console.log(`sends, 1 connection: ${(await sends(server.amqpPort, 'bench.one', 1)).toFixed(0)} msg/s`);
    console.log(`sends, 16 connections: ${(await sends(server.amqpPort, 'bench.many', 16)).toFixed(0)} msg/s`);
    const one = await receives(server.amqpPort, 'bench.one', 1);
    console.log(`receive+complete, 1 connection: ${one.rate.toFixed(0)} msg/s (${one.count} messages)`);
    const many = await receives(server.amqpPort, 'bench.many', 16);
    console.log(`receive+complete, 16 connections: ${many.rate.toFixed(0)} msg/s (${many.count} messages)`);
    const before = residentMb(server.child.pid);
    const clients = [];
    for (let i = 0; i < held; i += 1) {
      const client = new ServiceBusClient(connectionString(server.amqpPort));
      clients.push(client);
    }
    // A connection opens with its first link: peek one message on each.
    await Promise.all(clients.map((client) => client.createReceiver('bench.one').peekMessages(1)));
    const after = residentMb(server.child.pid);
    console.log(`${held} connections held at once: serve VmRSS ${before.toFixed(1)} -> ${after.toFixed(1)} MB, ` +
                `${((after - before) * 1024 / held).toFixed(1)} KB per connection`);
    await Promise.all(clients.map((client) => client.close()));
    console.log(`load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  } finally {
    server.child.kill('SIGTERM');
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

main().catch((error) => { console.error(error); process.exit(1); });
