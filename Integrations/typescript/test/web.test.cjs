// The Capacitor plugin's web implementation over a stand-in navigator.geolocation.
const assert = require('node:assert/strict');
const path = require('node:path');
const { test } = require('node:test');

const { WhereaboutsWeb } = require(path.join(__dirname, '..', '..', 'capacitor', 'dist', 'capacitor', 'src', 'web.js'));

function geolocation(answer) {
  return {
    getCurrentPosition: (resolve, reject) => answer(resolve, reject),
    watchPosition: (listener) => {
      answer(listener, () => {});
      return 7;
    },
    clearWatch: () => {},
  };
}

const here = { timestamp: 1700000000000, coords: { latitude: 52.52, longitude: 13.405, accuracy: 12 } };

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
  for (const method of ['configure', 'flush', 'getLocations', 'addRegions', 'getRegions', 'clearLocations']) {
    await assert.rejects(web[method]({}), { code: 'unsupportedPlatform' });
  }
});

test('web: a denied browser permission is permissionDenied, and no geolocation is unsupportedPlatform', async () => {
  globalThis.navigator = { geolocation: geolocation((_, reject) => reject({ code: 1, PERMISSION_DENIED: 1, message: 'denied' })) };
  const web = new WhereaboutsWeb();
  await assert.rejects(web.getCurrentLocation(), { code: 'permissionDenied' });
  assert.equal((await web.requestPermission()).result.location, 'denied');
  globalThis.navigator = {};
  await assert.rejects(web.getCurrentLocation(), { code: 'unsupportedPlatform' });
});
