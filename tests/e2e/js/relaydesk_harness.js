// SPDX-License-Identifier: MIT
// Starts `relaydesk serve` for an end-to-end test with the AWS SDK for JavaScript v3
// and drives its clock: the JavaScript twin of ../relaydesk_harness.py.
//
//   const { scenario } = require('./relaydesk_harness');
//   scenario('name', async (server) => { const sqs = server.sqs(); await server.advance(30); });
//
// Each scenario gets its own server (--port 0 --amqp-port 0 --amqps-port off --sb-management-port 0
// --db :memory: --clock virtual; options.amqps: --amqps-port 0 instead), stopped with SIGTERM at
// the end; it must exit with status 0. Its ready lines give the HTTP endpoint, the Service Bus
// (AMQP) one (server.serviceBusConnectionString()), the management API's (server.managementPort,
// TLS or plain HTTP on one port) and, with options.amqps, AMQPS (server.amqpsPort). The SDK comes from the build tree
// (installer/dev.sh runs `npm ci` there and CTest sets NODE_PATH). Every request a client
// sends is recorded in server.requests as { service, target, contentType } so a test can
// check which protocol the SDK really spoke.
'use strict';
const { spawn } = require('node:child_process');
const http = require('node:http');
const test = require('node:test');

function requireSdk(name) {
  try {
    return require(name);
  } catch (error) {
    throw new Error(`${name} is not installed for this build (NODE_PATH=${process.env.NODE_PATH || ''}): ` +
                    'run installer/dev.sh build, which runs npm ci from tests/e2e/js/package-lock.json');
  }
}
const sqsSdk = requireSdk('@aws-sdk/client-sqs');
const snsSdk = requireSdk('@aws-sdk/client-sns');

const CREDENTIALS = { accessKeyId: 'test', secretAccessKey: 'test' };
const READY_PREFIX = 'relaydesk: listening on ';

class RelaydeskServer {
  // options.database: a file instead of :memory:; options.args: more serve options;
  // options.credentials: the SDKs' access key (default test/test); options.bearerToken:
  // sent by api() (serve --credentials); options.amqps: AMQP over TLS on a free port too;
  // options.env: the server's environment (default: this process's).
  constructor(binary, options = {}) {
    this.binary = binary;
    this.database = options.database || ':memory:';
    this.extraArgs = options.args || [];
    this.credentials = options.credentials || CREDENTIALS;
    this.bearerToken = options.bearerToken;
    this.process = null;
    this.endpoint = null;
    this.amqpPort = null;
    this.amqps = Boolean(options.amqps);
    this.env = options.env || process.env;
    this.amqpsPort = null;
    this.managementPort = null;
    this.errors = '';
    this.requests = [];
  }

  start() {
    this.process = spawn(this.binary, ['serve', '--port', '0', '--amqp-port', '0', '--sb-management-port', '0',
                                       '--amqps-port', this.amqps ? '0' : 'off', '--db', this.database,
                                       '--clock', 'virtual', ...this.extraArgs],
                         { stdio: ['ignore', 'pipe', 'pipe'], env: this.env });
    this.process.stderr.setEncoding('utf8');
    this.process.stderr.on('data', (chunk) => { this.errors += chunk; });
    this.exited = new Promise((resolve) => this.process.on('exit', (code, signal) => resolve({ code, signal })));
    return new Promise((resolve, reject) => {
      let output = '';
      const onData = (chunk) => {
        output += chunk;
        const lines = output.split('\n');
        if (lines.length < (this.amqps ? 5 : 4)) return;   // the HTTP, AMQP, management (and AMQPS) ready lines
        this.process.stdout.off('data', onData);
        this.process.stdout.resume();   // keep draining whatever follows
        const [http, amqp, management, amqps] = lines.map((line) => line.trim());
        if (!http.startsWith(READY_PREFIX) || !amqp.startsWith(READY_PREFIX + 'amqp://') ||
            !management.startsWith(READY_PREFIX + 'https://') ||
            (this.amqps && !amqps.startsWith(READY_PREFIX + 'amqps://'))) {
          this.process.kill('SIGKILL');
          reject(new Error(`no ready lines, got ${JSON.stringify(output)}; stderr: ${this.errors}`));
          return;
        }
        this.endpoint = http.slice(READY_PREFIX.length);
        this.amqpPort = Number(amqp.slice(amqp.lastIndexOf(':') + 1));
        this.managementPort = Number(management.slice(management.lastIndexOf(':') + 1));
        if (this.amqps) this.amqpsPort = Number(amqps.slice(amqps.lastIndexOf(':') + 1));
        resolve(this);
      };
      this.process.stdout.setEncoding('utf8');
      this.process.stdout.on('data', onData);
      this.exited.then(({ code }) => reject(new Error(`relaydesk serve exited with ${code}: ${this.errors}`)));
    });
  }

  async stop() {
    this.process.kill('SIGTERM');
    const { code, signal } = await this.exited;
    if (code !== 0) throw new Error(`relaydesk serve exited with ${code} (${signal}): ${this.errors}`);
  }

  record(client, service) {
    client.middlewareStack.add((next) => async (args) => {
      const headers = args.request.headers || {};
      this.requests.push({ service, target: headers['x-amz-target'], contentType: headers['content-type'] });
      return next(args);
    }, { step: 'finalizeRequest', name: 'relaydeskRequestLog' });
    return client;
  }

  config() {
    return { endpoint: this.endpoint, region: 'us-east-1', credentials: this.credentials, maxAttempts: 1 };
  }

  sqs() { return this.record(new sqsSdk.SQSClient(this.config()), 'sqs'); }

  sns() { return this.record(new snsSdk.SNSClient(this.config()), 'sns'); }

  // The connection string the official Service Bus emulator documents, with this server's AMQP port.
  serviceBusConnectionString(keyName = 'RootManageSharedAccessKey', key = 'SAS_KEY_VALUE') {
    return `Endpoint=sb://localhost:${this.amqpPort};SharedAccessKeyName=${keyName};` +
           `SharedAccessKey=${key};UseDevelopmentEmulator=true`;
  }

  // A connection string that carries a ready-made token instead of a key (the SDK puts it as it is).
  serviceBusSignatureConnectionString(token) {
    return `Endpoint=sb://localhost:${this.amqpPort};SharedAccessSignature=${token};UseDevelopmentEmulator=true`;
  }

  // The native API: resolves to { status, body } (body parsed as JSON).
  api(method, path, body) {
    return fetchJson(this.endpoint + '/api/v1' + path, method, body, this.bearerToken);
  }

  async advance(seconds) {
    const { status, body } = await this.api('POST', '/clock/advance', { seconds });
    if (status !== 200) throw new Error(`clock advance answered ${status}: ${JSON.stringify(body)}`);
    return body;
  }

  // The receives waiting on `queue` now, as the broker counts them
  // (GET /api/v1/queues/NAME `waitingReceives`).
  async waitingReceives(queue) {
    const { status, body } = await this.api('GET', `/queues/${encodeURIComponent(queue)}`);
    if (status !== 200) throw new Error(`GET /queues/${queue} answered ${status}: ${JSON.stringify(body)}`);
    return body.waitingReceives;
  }

  // Resolves once `count` receives wait on `queue` (a long poll sent earlier
  // has reached the broker and waits); the bound only ends a hang.
  async awaitWaitingReceives(queue, count, boundMs = 60000) {
    const deadline = Date.now() + boundMs;
    for (let waiting = await this.waitingReceives(queue); waiting !== count; waiting = await this.waitingReceives(queue)) {
      if (Date.now() > deadline) throw new Error(`${queue}: ${waiting} receives waiting, never ${count}`);
    }
  }
}

function fetchJson(url, method, body, bearerToken) {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? null : Buffer.from(JSON.stringify(body));
    const headers = { 'Content-Type': 'application/json' };
    if (bearerToken) headers.Authorization = `Bearer ${bearerToken}`;
    const request = http.request(url, { method, headers }, (reply) => {
      let text = '';
      reply.setEncoding('utf8');
      reply.on('data', (chunk) => { text += chunk; });
      reply.on('end', () => resolve({ status: reply.statusCode, body: text ? JSON.parse(text) : {} }));
    });
    request.on('error', reject);
    if (data) request.write(data);
    request.end();
  });
}

function binaryFromEnvironment() {
  const binary = process.env.RELAYDESK_BINARY;
  if (!binary) throw new Error('RELAYDESK_BINARY is not set');
  return binary;
}

// scenario(name, body): one node:test test with its own server (serverOptions: see RelaydeskServer).
function scenario(name, body, serverOptions = {}) {
  test(name, async () => {
    const server = await new RelaydeskServer(binaryFromEnvironment(), serverOptions).start();
    let failed = true;
    try {
      await body(server);
      failed = false;
    } finally {
      if (failed) server.process.kill('SIGKILL'); else await server.stop();
    }
  });
}

// The error code a rejected SDK call carries: the query-compatible code when the
// service sent one (x-amzn-query-error), else the error's name.
async function errorCode(promise) {
  try {
    await promise;
  } catch (error) {
    return error.Code || error.name;
  }
  throw new Error('the call succeeded; an error was expected');
}

module.exports = { RelaydeskServer, scenario, errorCode, binaryFromEnvironment, sqsSdk, snsSdk };
