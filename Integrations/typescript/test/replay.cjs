// A fake native module that replays a transcript the Swift Bridge tests recorded: each call must be
// the next recorded one, with the same method and arguments; it answers the recorded reply, as
// Capacitor and React Native do (`{ result }`, or a rejection carrying the bridge's code and message).
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const folder = path.join(__dirname, 'transcripts');

function load(name) {
  return JSON.parse(fs.readFileSync(path.join(folder, `${name}.json`), 'utf8'));
}

class Replay {
  constructor(transcript, knownMethods) {
    this.steps = transcript.calls.filter((step) => knownMethods.includes(step.method));
    this.events = transcript.events;
    this.listeners = {};
  }

  async send(method, options) {
    const step = this.steps.shift();
    assert.ok(step, `${method} was called after the transcript ended`);
    assert.equal(method, step.method);
    assert.deepEqual(options, step.arguments, `${method}'s arguments differ from what the bridge was sent`);
    if (step.reply.error) throw Object.assign(new Error(step.reply.error.message), { code: step.reply.error.code });
    return { result: step.reply.result };
  }

  listen(name, listener) {
    (this.listeners[name] = this.listeners[name] || []).push(listener);
    return { remove: () => (this.listeners[name] = this.listeners[name].filter((l) => l !== listener)) };
  }

  emitRecordedEvents() {
    for (const [name, body] of Object.entries(this.events)) for (const listener of this.listeners[name] || []) listener(body);
  }
}

module.exports = { Replay, load };
