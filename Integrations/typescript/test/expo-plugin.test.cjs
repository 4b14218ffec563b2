const assert = require('node:assert/strict');
const path = require('node:path');
const { test } = require('node:test');

const withWhereabouts = require(path.join(__dirname, '..', '..', 'react-native', 'app.plugin.js'));

test('the Expo config plugin adds the usage strings and background modes, keeping what the app set', () => {
  const config = withWhereabouts(
    { name: 'app', ios: { bundleIdentifier: 'com.example', infoPlist: { UIBackgroundModes: ['audio'], NSLocationWhenInUseUsageDescription: 'Mine.' } } },
    { refreshTaskIdentifier: 'com.example.refresh' },
  );
  assert.equal(config.ios.bundleIdentifier, 'com.example');
  assert.equal(config.ios.infoPlist.NSLocationWhenInUseUsageDescription, 'Mine.');
  assert.match(config.ios.infoPlist.NSLocationAlwaysAndWhenInUseUsageDescription, /background/);
  assert.deepEqual(config.ios.infoPlist.UIBackgroundModes, ['audio', 'location', 'fetch']);
  assert.deepEqual(config.ios.infoPlist.BGTaskSchedulerPermittedIdentifiers, ['com.example.refresh']);
  assert.deepEqual(withWhereabouts({}).ios.infoPlist.UIBackgroundModes, ['location', 'fetch']);
});
