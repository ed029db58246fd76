// SPDX-License-Identifier: MIT
// RelaydeskContainer: the relaydesk image (installer/dev.sh image) as a Testcontainers
// container for Node tests (docs/harness.md "In CI and containers").
//
//   const relaydesk = await new RelaydeskContainer().withClock('virtual').start();
//   const sqs = new SQSClient({ endpoint: relaydesk.sqsEndpoint(), ... });
//   await relaydesk.advance(30);     // a 30 s visibility timeout passes, now
//   await relaydesk.stop();
//
// start() resolves once GET /health answers 200. SQS and SNS are the mapped HTTP port's
// root, Zaqar v2 is under /v2 of it, Service Bus is AMQP 1.0 on the mapped 5672 with the
// official emulator's connection string. The database is in the container: each container
// starts empty. The image: the constructor's argument, else $RELAYDESK_IMAGE, else IMAGE.
'use strict';
const { AbstractStartedContainer, GenericContainer, Wait } = require('testcontainers');

// What installer/image/build_image.sh tags: relaydesk:<the .deb's version> (CMakeLists.txt's VERSION).
const IMAGE = 'relaydesk:0.1.0';
const HTTP_PORT = 9911; // SQS, SNS, Zaqar, the native API (/api/v1)
const AMQP_PORT = 5672; // Azure Service Bus
// Every port the image exposes is published (AMQPS, Service Bus management too): podman 4.3
// lists the image's unpublished ports among a container's port bindings, and Testcontainers
// waits for every listed binding to get a host port.
const PORTS = [HTTP_PORT, AMQP_PORT, 5671, 5300];
const SERVICEBUS_KEY = 'SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=SAS_KEY_VALUE;UseDevelopmentEmulator=true';

class RelaydeskContainer extends GenericContainer {
  constructor(image = process.env.RELAYDESK_IMAGE || IMAGE) {
    super(image);
    this.clock = 'real';
    this.withExposedPorts(...PORTS)
      .withWaitStrategy(Wait.forHttp('/health', HTTP_PORT).forStatusCode(200))
      .withStartupTimeout(60_000);
  }

  /** 'real' (the image's default), 'scaled' or 'virtual' (docs/harness.md, The clock). */
  withClock(clock) {
    this.clock = clock;
    return this.withOption('clock', clock);
  }

  /** A `serve` option by its long name without "--": RELAYDESK_<NAME> in the container. */
  withOption(name, value) {
    return this.withEnvironment({ [`RELAYDESK_${name.toUpperCase().replaceAll('-', '_')}`]: String(value) });
  }

  async start() {
    return new StartedRelaydeskContainer(await super.start(), this.clock);
  }
}

class StartedRelaydeskContainer extends AbstractStartedContainer {
  constructor(started, clock) {
    super(started);
    this.clock = clock;
  }

  httpEndpoint() {
    return `http://${this.getHost()}:${this.getMappedPort(HTTP_PORT)}`;
  }

  /** The SQS endpoint (JSON and query protocols): an AWS SDK's `endpoint`. */
  sqsEndpoint() { return this.httpEndpoint(); }

  /** The SNS endpoint (query protocol): an AWS SDK's `endpoint`. */
  snsEndpoint() { return this.httpEndpoint(); }

  /** The Zaqar service root (the v2 API is under /v2). */
  zaqarEndpoint() { return this.httpEndpoint(); }

  /** The official emulator's connection string, which the Azure Service Bus SDKs take. */
  servicebusConnectionString() {
    return `Endpoint=sb://${this.getHost()}:${this.getMappedPort(AMQP_PORT)};${SERVICEBUS_KEY}`;
  }

  /** Moves the virtual clock on by seconds; resolves once everything due has happened
   *  (docs/api.md, Clock). Only with withClock('virtual'): otherwise it rejects, and nothing changes. */
  async advance(seconds) {
    if (this.clock !== 'virtual') {
      throw new Error(`advance needs withClock('virtual'); this container's clock is '${this.clock}'`);
    }
    const reply = await fetch(`${this.httpEndpoint()}/api/v1/clock/advance`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ seconds }),
    });
    if (reply.status !== 200) throw new Error(`clock/advance answered ${reply.status}: ${await reply.text()}`);
    return reply.json();
  }
}

module.exports = { RelaydeskContainer, StartedRelaydeskContainer, IMAGE };
