// Drives each package's API against a fake native module replaying the Swift Bridge's transcripts.
const assert = require('node:assert/strict');
const path = require('node:path');
const { test } = require('node:test');
const { Replay, load } = require('./replay.cjs');
const keys = require('./build/test/keys.js');

const integrations = path.join(__dirname, '..', '..');
const contract = load('contract');

/** The package's entry point, loaded afresh over the fake native side. */
function loadPackage(name, platform, replay) {
  const entry = require.resolve(path.join(integrations, name));
  for (const file of Object.keys(require.cache)) if (file.startsWith(path.join(integrations, name))) delete require.cache[file];
  const plugin = Object.fromEntries(contract.methods.map((method) => [method, (options) => replay.send(method, options)]));
  plugin.addListener = async (event, listener) => replay.listen(event, listener);
  // The native module decodes its options as WhereaboutsModule.swift does: JSON text, or none.
  const decode = (options) => (typeof options === 'string' ? JSON.parse(options) : options ?? {});
  const module = { call: (method, options) => replay.send(method, decode(options)), listen: (e, l) => replay.listen(e, l) };
  globalThis.whereaboutsFake = { platform, plugin, module: replay ? module : null };
  return require(entry);
}

/** How the API calls each native method with a step's arguments; `undefined` where it cannot. */
const calls = {
  configure: (api, a) => api.configure(a),
  setAuth: (api, a) => api.setAuth(a),
  signOut: (api) => api.signOut(),
  startTracking: (api, a) => api.start(a),
  stopTracking: (api) => api.stop(),
  setMode: (api, a) => api.setMode(a),
  getCurrentLocation: (api) => api.getCurrentLocation(),
  getLocations: (api, a) => api.getLocations(a),
  getLocationData: (api) => api.getLocationData(),
  requestLocationUpdate: (api) => api.requestLocationUpdate(),
  startActiveTracking: (api, a) => api.startActiveTracking(a),
  flush: (api) => api.flush(),
  clearLocations: (api) => api.clearLocations(),
  checkPermissions: (api) => api.checkPermissions(),
  requestPermission: (api, a) =>
    ({ foreground: ['location'], background: ['backgroundLocation'] })[a.kind] &&
    api.requestPermissions({ permissions: { foreground: ['location'], background: ['backgroundLocation'] }[a.kind] }),
  locationAction: (api) => api.locationAction(),
  addRegions: (api, a) => api.addRegions(a),
  setRegions: (api, a) => api.setRegions(a),
  removeRegions: (api, a) => api.removeRegions(a),
  getRegions: (api) => api.getRegions(),
  addRegionHere: (api, a) => api.addRegionHere(a),
  configureNotifications: (api, a) => api.configureNotifications(a),
  markRegion: (api, a) => api.markRegion(a),
};

function expectKeys(value, expected, what) {
  const items = Array.isArray(value) ? value : [value];
  for (const item of items) {
    if (item === null) continue;
    assert.deepEqual(Object.keys(item).sort(), [...expected].sort(), `${what}: the fields differ from the TypeScript type`);
  }
}

test('the TypeScript side knows every native method, event, error code, mode name, upload trigger and upload stop', () => {
  assert.deepEqual([...keys.methods].sort(), [...contract.methods].sort());
  assert.deepEqual([...keys.events].sort(), [...contract.events].sort());
  const { errorCodes, trackingModeNames, uploadTriggers, uploadStops } = loadPackage('capacitor', 'ios', null);
  assert.deepEqual([...errorCodes].sort(), [...contract.errorCodes, 'unsupportedPlatform'].sort());
  assert.deepEqual([...trackingModeNames].sort(), [...contract.modes].sort());
  assert.deepEqual([...uploadTriggers].sort(), [...contract.uploadTriggers].sort());
  assert.deepEqual([...uploadStops].sort(), [...contract.uploadStops].sort());
});

for (const name of ['capacitor', 'react-native']) {
  for (const transcript of ['tracking', 'uploads', 'permissions']) {
    test(`${name}: the API replays the ${transcript} transcript`, async () => {
      const recorded = load(transcript);
      const replay = new Replay(recorded, contract.methods);
      const { Whereabouts, WhereaboutsError } = loadPackage(name, 'ios', replay);
      const seen = {};
      for (const event of Object.keys(recorded.events)) await Whereabouts.addListener(event, (body) => (seen[event] = body));
      for (const step of [...replay.steps]) {
        const pending = calls[step.method](Whereabouts, step.arguments);
        if (pending === undefined) {
          replay.steps.shift();
          continue;
        }
        if (step.reply.error) {
          await assert.rejects(pending, (error) => {
            assert.ok(error instanceof WhereaboutsError, `${step.method} rejects with a WhereaboutsError`);
            assert.equal(error.code, step.reply.error.code);
            return true;
          });
          continue;
        }
        const result = await pending;
        if (keys.results[step.method]) expectKeys(result, keys.results[step.method], step.method);
        else assert.equal(result, undefined, `${step.method} resolves with nothing`);
      }
      assert.equal(replay.steps.length, 0, 'every recorded call was made');
      replay.emitRecordedEvents();
      assert.deepEqual(Object.keys(seen).sort(), Object.keys(recorded.events).sort());
      for (const [event, body] of Object.entries(seen)) expectKeys(body, keys.eventBodies[event], `the ${event} event`);
    });
  }

  test(`${name}: on Android every method rejects with unsupportedPlatform`, async () => {
    const { Whereabouts, isWhereaboutsError } = loadPackage(name, 'android', null);
    for (const [method, fn] of Object.entries(Whereabouts)) {
      await assert.rejects(fn({ mode: 'continuous', ids: [], regions: [], upload: null, minutes: 5 }), (error) => {
        assert.ok(isWhereaboutsError(error), `${method} rejects with a Whereabouts error`);
        assert.equal(error.code, 'unsupportedPlatform');
        assert.match(error.message, /Android|android/);
        return true;
      });
    }
  });
}

test('react-native: an unlinked module rejects with notConfigured', async () => {
  const { Whereabouts } = loadPackage('react-native', 'ios', null);
  await assert.rejects(Whereabouts.flush(), { code: 'notConfigured' });
});

test('react-native: configure({ upload: null }) reaches native with upload null, through the New Architecture\'s interop layer', async () => {
  const { interop } = require('react-native');
  assert.deepEqual(interop({ upload: null, a: [null, { b: null }] }), { a: [null, {}] }, 'the fake drops null-valued keys as React Native does');
  const replay = new Replay(
    { calls: [{ method: 'configure', arguments: { upload: null }, reply: { result: null } }], events: {} },
    contract.methods,
  );
  const { Whereabouts } = loadPackage('react-native', 'ios', replay);
  await Whereabouts.configure({ upload: null });
  assert.equal(replay.steps.length, 0);
});

test('react-native: a number JSON cannot carry is refused naming it, never sent as null', async () => {
  const replay = new Replay({ calls: [], events: {} }, contract.methods);
  const { Whereabouts } = loadPackage('react-native', 'ios', replay);
  await assert.rejects(Whereabouts.start({ mode: 'move', distance: NaN }), (error) => {
    assert.equal(error.code, 'invalidArguments');
    assert.match(error.message, /^startTracking: "distance" is NaN/);
    return true;
  });
  await assert.rejects(Whereabouts.addRegions({ regions: [{ id: 'a', latitude: 1, longitude: 2, radius: Infinity }] }), /"regions\[0\]\.radius"/);
});

for (const name of ['capacitor', 'react-native']) {
  test(`${name}: a method that takes options, called with none from plain JavaScript, sends {} and rejects as native answers`, async () => {
    const refusal = { code: 'invalidArguments', message: 'setMode: "mode" is missing; pass {"mode": ...}' };
    const replay = new Replay({ calls: [{ method: 'setMode', arguments: {}, reply: { error: refusal } }], events: {} }, contract.methods);
    const { Whereabouts } = loadPackage(name, 'ios', replay);
    await assert.rejects(Whereabouts.setMode(), { code: 'invalidArguments' });
    assert.equal(replay.steps.length, 0);
  });
}

test('capacitor: a plugin Capacitor does not have on iOS (no npx cap sync) rejects with notConfigured, as an unlinked React Native module', async () => {
  const unimplemented = {
    send: async () => {
      throw Object.assign(new Error('"Whereabouts" plugin is not implemented on ios'), { code: 'UNIMPLEMENTED' });
    },
    listen: () => ({ remove: () => {} }),
  };
  const { Whereabouts } = loadPackage('capacitor', 'ios', unimplemented);
  await assert.rejects(Whereabouts.flush(), (error) => {
    assert.equal(error.code, 'notConfigured');
    assert.match(error.message, /^flush: .*not implemented on ios.*npx cap sync/);
    return true;
  });
});
