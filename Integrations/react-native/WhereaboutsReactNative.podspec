require 'json'

package = JSON.parse(File.read(File.join(__dir__, 'package.json')))

# The React Native module over the Whereabouts engine. The engine's pods are in engine/ (copied into
# the package when it is packed); the app's Podfile adds them, and GRDB, with `whereabouts_pods` from
# engine/cocoapods.rb (see README.md; Expo's config plugin adds that line itself).
Pod::Spec.new do |s|
  s.name = 'WhereaboutsReactNative'
  s.version = package['version']
  s.summary = package['description']
  s.license = package['license']
  s.author = 'Whereabouts'
  s.source_files = 'ios/**/*.{swift,m}'
  s.ios.deployment_target = '15.0'
  s.swift_version = '5.9'
  s.dependency 'Whereabouts'
  s.dependency 'WhereaboutsApple'

  install_modules_dependencies(s)
end
