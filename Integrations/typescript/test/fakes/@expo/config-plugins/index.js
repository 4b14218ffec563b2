// A stand-in for @expo/config-plugins in the tests: withInfoPlist and withPodfile chain their action
// onto config.mods as Expo's withMod does (prebuild.cjs then runs them as `expo prebuild` would).
function withMod(platform, mod) {
  return (config, action) => {
    const previous = config.mods && config.mods[platform] && config.mods[platform][mod];
    const chained = async (modConfig) => {
      const next = await action(modConfig);
      return previous ? previous(next) : next;
    };
    const mods = { ...config.mods, [platform]: { ...(config.mods && config.mods[platform]), [mod]: chained } };
    return { ...config, mods };
  };
}

module.exports = { withInfoPlist: withMod('ios', 'infoPlist'), withPodfile: withMod('ios', 'podfile') };
