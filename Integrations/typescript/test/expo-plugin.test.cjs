// The Expo config plugin, run through Expo's mods as `expo prebuild --clean` runs it.
const assert = require('node:assert/strict');
const path = require('node:path');
const { test } = require('node:test');
const { prebuild, templatePodfile } = require('./prebuild.cjs');

const withWhereabouts = require(path.join(__dirname, '..', '..', 'react-native', 'app.plugin.js'));

const sample = { name: 'app', slug: 'app', ios: { bundleIdentifier: 'com.example.app' } };

/** Every key the default features need, with the plugin's own strings. */
const everyKey = {
  NSLocationWhenInUseUsageDescription: 'Your location shows where you are.',
  NSLocationAlwaysAndWhenInUseUsageDescription: 'Your location is recorded in the background so your trips are complete.',
  NSMotionUsageDescription: 'Motion tells when you start and stop moving, so tracking saves battery while you stay put.',
  UIBackgroundModes: ['location', 'fetch'],
  BGTaskSchedulerPermittedIdentifiers: ['com.example.app.whereabouts.refresh'],
  WhereaboutsRefreshTaskIdentifier: 'com.example.app.whereabouts.refresh',
};

/** The Info.plist without the list of what the plugin added. */
function withoutMarker({ WhereaboutsConfigPluginEntries, ...infoPlist }) {
  return infoPlist;
}

test('the Expo plugin adds every Info.plist key the default features need, and the engine pods after use_expo_modules!', async () => {
  const { infoPlist, podfile } = await prebuild(withWhereabouts(sample));
  assert.deepEqual(withoutMarker(infoPlist), everyKey);
  const { UIBackgroundModes, BGTaskSchedulerPermittedIdentifiers, ...strings } = everyKey;
  assert.deepEqual(
    infoPlist.WhereaboutsConfigPluginEntries,
    { strings, backgroundModes: UIBackgroundModes, taskIdentifiers: BGTaskSchedulerPermittedIdentifiers },
    'it lists what it added, to take it back at the next prebuild',
  );
  const lines = podfile.split('\n');
  assert.match(lines[lines.findIndex((line) => line.includes('use_expo_modules!')) + 2], /require .*@whereabouts\/react-native\/package\.json.*'engine', 'cocoapods'/);
  assert.ok(lines.includes('  whereabouts_pods'));
});

test('the Expo plugin keeps what the app set, and adds nothing twice when run again or on its own output', async () => {
  const infoPlist = { UIBackgroundModes: ['audio', 'fetch'], NSLocationWhenInUseUsageDescription: 'Mine.', BGTaskSchedulerPermittedIdentifiers: ['com.example.app.sync'] };
  const once = await prebuild(withWhereabouts(sample), { infoPlist });
  assert.equal(once.infoPlist.NSLocationWhenInUseUsageDescription, 'Mine.');
  assert.deepEqual(once.infoPlist.UIBackgroundModes, ['audio', 'fetch', 'location']);
  assert.deepEqual(once.infoPlist.BGTaskSchedulerPermittedIdentifiers, ['com.example.app.sync', 'com.example.app.whereabouts.refresh']);
  assert.deepEqual(await prebuild(withWhereabouts(withWhereabouts(sample)), { infoPlist }), once, 'the plugin listed twice');
  assert.deepEqual(await prebuild(withWhereabouts(sample), once), once, 'prebuild without --clean, over its own output');
  assert.deepEqual(await prebuild(withWhereabouts(sample), { infoPlist }), once, 'prebuild --clean again');
});

test('the Expo plugin leaves out the keys of the features turned off', async () => {
  const { infoPlist } = await prebuild(withWhereabouts(sample, { always: false, motion: false, refreshTaskIdentifier: false }));
  assert.deepEqual(withoutMarker(infoPlist), { NSLocationWhenInUseUsageDescription: everyKey.NSLocationWhenInUseUsageDescription });
  const custom = await prebuild(withWhereabouts({ name: 'app' }, { refreshTaskIdentifier: 'org.example.tick', whenInUse: 'To map you.' }));
  assert.deepEqual(custom.infoPlist.BGTaskSchedulerPermittedIdentifiers, ['org.example.tick']);
  assert.equal(custom.infoPlist.NSLocationWhenInUseUsageDescription, 'To map you.');
  const unnamed = await prebuild(withWhereabouts({ name: 'app' }));
  assert.deepEqual(unnamed.infoPlist.BGTaskSchedulerPermittedIdentifiers, ['$(PRODUCT_BUNDLE_IDENTIFIER).whereabouts.refresh'], 'no bundle id in app.json: Xcode fills it in');
});

test('the Expo plugin names the Podfile line it needs when the Podfile has none to follow', async () => {
  await assert.rejects(prebuild(withWhereabouts(sample), { podfile: templatePodfile.replace('use_expo_modules!', '') }), /use_expo_modules!/);
});

test('the Expo plugin permits the refresh task identifier the app sets itself in Info.plist', async () => {
  const { infoPlist } = await prebuild(withWhereabouts(sample), { infoPlist: { WhereaboutsRefreshTaskIdentifier: 'com.ex.app.sync' } });
  assert.equal(infoPlist.WhereaboutsRefreshTaskIdentifier, 'com.ex.app.sync', 'the app\'s value wins');
  assert.deepEqual(infoPlist.BGTaskSchedulerPermittedIdentifiers, ['com.ex.app.sync'], 'and is the one permitted');
  const opted = await prebuild(withWhereabouts(sample, { refreshTaskIdentifier: 'org.example.tick' }), {
    infoPlist: { WhereaboutsRefreshTaskIdentifier: 'com.ex.app.sync' },
  });
  assert.deepEqual(opted.infoPlist.BGTaskSchedulerPermittedIdentifiers, ['com.ex.app.sync'], 'over the option too');
});

test('the Expo plugin with options changed between two prebuilds without --clean gives what a clean prebuild gives', async () => {
  const own = { UIBackgroundModes: ['audio', 'fetch'], NSMotionUsageDescription: 'Mine.', BGTaskSchedulerPermittedIdentifiers: ['com.example.app.sync'] };
  const changes = [
    [{}, { refreshTaskIdentifier: 'org.example.tick' }],
    [{}, { whenInUse: 'To map you.' }],
    [{}, { always: false }],
    [{}, { always: false, motion: false, refreshTaskIdentifier: false }],
    [{ always: false, refreshTaskIdentifier: false }, {}],
    [{ refreshTaskIdentifier: 'org.example.tick', whenInUse: 'To map you.' }, { refreshTaskIdentifier: 'org.example.tock' }],
  ];
  for (const [before, after] of changes) {
    for (const infoPlist of [{}, own]) {
      const first = await prebuild(withWhereabouts(sample, before), { infoPlist });
      const clean = await prebuild(withWhereabouts(sample, after), { infoPlist });
      const over = await prebuild(withWhereabouts(sample, after), first);
      assert.deepEqual(over.infoPlist, clean.infoPlist, `${JSON.stringify(before)} then ${JSON.stringify(after)} over ${JSON.stringify(infoPlist)}`);
    }
  }
});
