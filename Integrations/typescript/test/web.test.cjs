// The Capacitor plugin's web implementation over a stand-in navigator.geolocation.
const assert = require('node:assert/strict');
const path = require('node:path');
const { test } = require('node:test');

const { WhereaboutsWeb } = require(path.join(__dirname, '..', '..', 'capacitor', 'dist', 'capacitor', 'src', 'web.js'));

/** A navigator.geolocation whose every request gets `answer(success, failure)`; `cleared` lists cleared watches. */
function geolocation(answer) {
  const stand = {
    cleared: [],
    getCurrentPosition: (resolve, reject) => answer(resolve, reject),
    watchPosition: (listener, failure) => {
      answer(listener, failure);
      return 7;
    },
    clearWatch: (watch) => stand.cleared.push(watch),
  };
  return stand;
}

const here = { timestamp: 1700000000000, coords: { latitude: 52.52, longitude: 13.405, accuracy: 12 } };
const denied = { code: 1, PERMISSION_DENIED: 1, message: 'denied' };

test('web: positions and permissions come from navigator.geolocation; the rest is unsupportedPlatform', async () => {
  globalThis.navigator = { geolocation: geolocation((resolve) => resolve(here)) };
  const web = new WhereaboutsWeb();
  assert.deepEqual(await web.getCurrentLocation(), { result: { lat: 52.52, lng: 13.405, timestamp: 1700000000000 } });
  assert.equal((await web.requestPermission()).result.location, 'granted');
  assert.equal((await web.checkPermissions()).result.location, 'prompt', 'no Permissions API: the dialog may still show');
  const stored = [];
  await web.addListener('location', (item) => stored.push(item));
  await web.startTracking();
  assert.equal(stored[0].accuracy, 12);
  await web.stopTracking();
  for (const method of ['configure', 'flush', 'addRegions', 'getRegions', 'getLocationData', 'requestLocationUpdate']) {
    await assert.rejects(web[method]({}), { code: 'unsupportedPlatform' });
  }
});

test('web: getCurrentLocation and getLocations answer from the positions stored, newest last', async () => {
  let next = 0;
  const positions = [here, { timestamp: here.timestamp + 1000, coords: { latitude: 48.85, longitude: 2.35, accuracy: 30 } }];
  globalThis.navigator = { geolocation: geolocation((resolve) => resolve(positions[next++])) };
  const web = new WhereaboutsWeb();
  assert.deepEqual((await web.getLocations({})).result, []);
  await web.startTracking();
  await web.stopTracking();
  await web.startTracking();
  globalThis.navigator = { geolocation: geolocation((_, reject) => reject(denied)) };
  assert.deepEqual((await web.getCurrentLocation()).result, { lat: 48.85, lng: 2.35, timestamp: here.timestamp + 1000 }, 'the newest stored, without asking');
  const trail = (await web.getLocations({})).result;
  assert.deepEqual(trail.map((item) => [item.latitude, item.uploaded]), [[52.52, false], [48.85, false]]);
  assert.deepEqual((await web.getLocations({ limit: 1 })).result.map((item) => item.latitude), [48.85]);
  assert.deepEqual((await web.clearLocations()).result, { removed: 2 });
  assert.deepEqual((await web.getLocations({})).result, []);
});

test('web: a denied browser permission is permissionDenied, and no geolocation is unsupportedPlatform', async () => {
  const refusing = geolocation((_, reject) => reject(denied));
  globalThis.navigator = { geolocation: refusing };
  const web = new WhereaboutsWeb();
  await assert.rejects(web.startTracking(), { code: 'permissionDenied' });
  assert.deepEqual(refusing.cleared, [7], 'the refused watch is cleared');
  await assert.rejects(web.getCurrentLocation(), { code: 'permissionDenied' });
  assert.equal((await web.requestPermission()).result.location, 'denied');
  globalThis.navigator = {};
  await assert.rejects(web.getCurrentLocation(), { code: 'unsupportedPlatform' });
  await assert.rejects(web.startTracking(), { code: 'unsupportedPlatform' });
});

/** A navigator.geolocation whose watches answer only when told (`emit`); it lists the watches created and cleared. */
function manualGeolocation() {
  const stand = {
    created: [],
    cleared: [],
    live: new Map(),
    watchPosition: (listener) => {
      const id = stand.created.length + 1;
      stand.created.push(id);
      stand.live.set(id, listener);
      return id;
    },
    clearWatch: (id) => {
      stand.cleared.push(id);
      stand.live.delete(id);
    },
    getCurrentPosition: () => {},
    emit: (position) => {
      for (const listener of [...stand.live.values()]) listener(position);
    },
  };
  return stand;
}

const later = { timestamp: here.timestamp + 5000, coords: { latitude: 52.53, longitude: 13.41, accuracy: 9 } };

test('web: two starts make one watch, a stop while a start waits wins, and nothing is recorded after stopTracking', async () => {
  const browser = manualGeolocation();
  globalThis.navigator = { geolocation: browser };
  const web = new WhereaboutsWeb();
  const stored = [];
  await web.addListener('location', (item) => stored.push(item));

  // React StrictMode runs an effect twice: start(); start().
  const first = web.startTracking();
  const second = web.startTracking();
  browser.emit(here);
  assert.deepEqual(await Promise.all([first, second]), [{ result: null }, { result: null }]);
  assert.equal(browser.created.length, 1, 'one watch');
  assert.equal(stored.length, 1, 'each position recorded once');
  await web.stopTracking();
  browser.emit(later);
  assert.equal(stored.length, 1, 'nothing after stopTracking');
  assert.deepEqual(browser.cleared, browser.created, 'every watch created is cleared');

  // start(); stop(): the start resolves, its watch is cleared, and its first answer is not recorded.
  const pending = web.startTracking();
  await web.stopTracking();
  browser.emit(later);
  assert.deepEqual(await pending, { result: null });
  assert.equal(stored.length, 1);
  assert.deepEqual(browser.cleared, browser.created);

  // start(); stop(); start(): the second start tracks on its own watch.
  const stopped = web.startTracking();
  await web.stopTracking();
  const again = web.startTracking();
  browser.emit(later);
  await Promise.all([stopped, again]);
  assert.equal(browser.live.size, 1, 'one watch on');
  assert.equal(stored.length, 2);
  await web.stopTracking();
  assert.deepEqual(browser.cleared, browser.created);
  assert.equal((await web.getLocations({})).result.length, 2);
});

test('web: getLocations refuses a limit the device refuses, and every record has its own id', async () => {
  globalThis.navigator = { geolocation: geolocation((resolve) => resolve(here)) };
  const web = new WhereaboutsWeb();
  for (const limit of [0, -1, 2.5, 100001, '5']) {
    await assert.rejects(web.getLocations({ limit }), (error) => {
      assert.equal(error.code, 'invalidArguments', `limit ${limit}`);
      assert.match(error.message, /^getLocations: limit .* is not a whole number in 1\.\.\.100000/);
      return true;
    });
  }
  await assert.rejects(web.getLocations({ includeUploaded: 'yes' }), { code: 'invalidArguments' });
  // null is absent, as on the device: the default limit, uploaded or not.
  assert.deepEqual((await web.getLocations({ limit: null, includeUploaded: null })).result, []);
  // A cached fix handed to getCurrentPosition and then to the watch: the same timestamp twice.
  await web.getCurrentLocation();
  await web.startTracking();
  await web.stopTracking();
  const ids = (await web.getLocations({ limit: 100000 })).result.map((item) => item.id);
  assert.equal(ids.length, 2);
  assert.equal(new Set(ids).size, 2, `ids are unique: ${ids}`);
});
