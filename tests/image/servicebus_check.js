// SPDX-License-Identifier: MIT
// check_image.sh's Service Bus check: the official SDK (@azure/service-bus, from
// tests/e2e/js's package-lock.json) sends to and receives from a queue of the image's
// broker over AMQP, with the emulator's connection string.
//
//   NODE_PATH=.../tests/e2e/js/node_modules node servicebus_check.js HTTP_ENDPOINT AMQP_PORT
'use strict';
const { ServiceBusClient } = require('@azure/service-bus');

async function main() {
  const [endpoint, amqpPort] = process.argv.slice(2);
  const created = await fetch(`${endpoint}/api/v1/servicebus/queues`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ Name: 'image-check-sb', Properties: {} }),
  });
  if (created.status !== 201) throw new Error(`creating the queue answered ${created.status}: ${await created.text()}`);
  const client = new ServiceBusClient(`Endpoint=sb://localhost:${amqpPort};SharedAccessKeyName=RootManageSharedAccessKey;` +
                                      'SharedAccessKey=SAS_KEY_VALUE;UseDevelopmentEmulator=true');
  try {
    await client.createSender('image-check-sb').sendMessages({ body: 'from the Service Bus SDK' });
    const receiver = client.createReceiver('image-check-sb');
    const got = await receiver.receiveMessages(1, { maxWaitTimeInMs: 10000 });
    if (got.length !== 1 || got[0].body !== 'from the Service Bus SDK') throw new Error(`received ${JSON.stringify(got)}`);
    await receiver.completeMessage(got[0]);
    console.log(`image_checks: servicebus: ok: sent, received and completed on amqp://localhost:${amqpPort}/image-check-sb`);
  } finally {
    await client.close();
  }
}

main().catch((error) => {
  console.log(`image_checks: servicebus: FAILED: ${error.stack || error}`);
  process.exit(1);
});
