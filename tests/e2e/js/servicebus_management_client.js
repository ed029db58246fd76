// SPDX-License-Identifier: MIT
// What the management tests (servicebus_management_scenarios.js, servicebus_management_table_scenarios.js)
// share: the administration client of @azure/service-bus on the server's management port, the
// SDK's error of a rejected call, and runTrustingLocalCa(), which runs the calling test file
// trusting Relaydesk's local CA as a Node user does once:
//
//   NODE_EXTRA_CA_CERTS="$(relaydesk tls ca)" node app.js
//
// Node reads NODE_EXTRA_CA_CERTS only at its start, so the first run makes a CA in a scratch
// XDG_DATA_HOME (`relaydesk tls ca`), runs the same file again with both set (the servers it
// starts inherit that XDG_DATA_HOME, so their certificates come from that CA), removes the scratch
// folder and exits with the second run's status. Call it first; in the second run it returns.
// (NODE_EXTRA_CA_CERTS may be set already: it is replaced.)
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

function runTrustingLocalCa() {
  if (process.env.RELAYDESK_TRUSTS_LOCAL_CA) return;
  const { execFileSync, spawnSync } = require('node:child_process');
  const dataHome = fs.mkdtempSync(path.join(os.tmpdir(), 'relaydesk-management-ca-'));
  const env = { ...process.env, XDG_DATA_HOME: dataHome };
  env.NODE_EXTRA_CA_CERTS = execFileSync(process.env.RELAYDESK_BINARY, ['tls', 'ca'], { env, encoding: 'utf8' }).trim();
  env.RELAYDESK_TRUSTS_LOCAL_CA = '1';
  const run = spawnSync(process.execPath, process.argv.slice(1), { env, stdio: 'inherit' });
  fs.rmSync(dataHome, { recursive: true, force: true });
  process.exit(run.status === null ? 1 : run.status);
}

function managementConnectionString(server, key = 'SAS_KEY_VALUE') {
  return `Endpoint=sb://localhost:${server.managementPort};SharedAccessKeyName=RootManageSharedAccessKey;` +
         `SharedAccessKey=${key};UseDevelopmentEmulator=true`;
}

function adminClient(server, key) {
  const { ServiceBusAdministrationClient } = require('@azure/service-bus');
  return new ServiceBusAdministrationClient(managementConnectionString(server, key));
}

// The SDK's error of a rejected call: { code, statusCode, message }.
async function refusal(promise) {
  try {
    await promise;
  } catch (error) {
    return { code: error.code, statusCode: error.statusCode, message: error.message };
  }
  throw new Error('the call succeeded; an error was expected');
}

async function all(iterator) {
  const items = [];
  for await (const item of iterator) items.push(item);
  return items;
}

module.exports = { runTrustingLocalCa, adminClient, refusal, all };
