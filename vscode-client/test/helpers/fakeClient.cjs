// A language client that records what the extension does with it, for the activation tests.
'use strict';

const RUNNING = 2; // vscode-languageclient's State.Running

function fakeClients(answer = () => null) {
  const created = [];
  function createClient(id, name, server, options) {
    const listeners = new Set();
    const client = {
      id,
      name,
      server,
      options,
      started: 0,
      stopped: 0,
      running: false,
      notifications: [],
      requests: [],
      async start() {
        client.started++;
        client.running = true;
        listeners.forEach((l) => l({ oldState: 3, newState: RUNNING }));
      },
      async stop() {
        client.stopped++;
        client.running = false;
        listeners.forEach((l) => l({ oldState: RUNNING, newState: 1 }));
      },
      isRunning: () => client.running,
      onDidChangeState(listener) {
        listeners.add(listener);
        return { dispose: () => listeners.delete(listener) };
      },
      async sendNotification(type, params) {
        client.notifications.push({ method: type.method, params });
      },
      async sendRequest(type, params) {
        client.requests.push({ method: type.method, params });
        return answer(type.method, params);
      },
      code2ProtocolConverter: { asUri: (uri) => uri.toString() },
      protocol2CodeConverter: { asRange: (range) => range },
    };
    created.push(client);
    return client;
  }
  return { created, createClient };
}

module.exports = { fakeClients, RUNNING };
