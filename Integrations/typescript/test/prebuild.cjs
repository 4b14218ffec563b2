// Plays `expo prebuild`'s part for the config plugin tests: runs a config's iOS mods, as the plugins
// chained them, on the Info.plist and Podfile of Expo's template, new each time as `--clean` makes them.

/** The Podfile of Expo's bare template, the part the plugin edits. */
const templatePodfile = [
  "require File.join(File.dirname(`node --print \"require.resolve('expo/package.json')\"`), 'scripts/autolinking')",
  "platform :ios, '15.1'",
  "target 'app' do",
  '  use_expo_modules!',
  '  config = use_native_modules!(config_command)',
  'end',
  '',
].join('\n');

/** What the config's mods write into `infoPlist` and `podfile` (the template's by default). */
async function prebuild(config, { infoPlist = {}, podfile = templatePodfile } = {}) {
  const { mods, ...expo } = config;
  const plist = await mods.ios.infoPlist({ ...expo, modResults: structuredClone(infoPlist) });
  const pods = await mods.ios.podfile({ ...expo, modResults: { contents: podfile } });
  return { infoPlist: plist.modResults, podfile: pods.modResults.contents };
}

module.exports = { prebuild, templatePodfile };
