require 'json'

package = JSON.parse(File.read(File.join(__dir__, 'package.json')))

# The plugin's Swift file over Capacitor and the Whereabouts engine, and its launch observer (+load). The engine's pods are in engine/
# (copied into the package when it is packed); the app's Podfile adds them, and GRDB, with
# `whereabouts_pods` from engine/cocoapods.rb (see README.md).
Pod::Spec.new do |s|
  s.name = 'WhereaboutsCapacitor'
  s.version = package['version']
  s.summary = package['description']
  s.license = package['license']
  s.author = 'Whereabouts'
  s.source_files = 'ios/Sources/**/*.{swift,h,m}'
  s.ios.deployment_target = '15.0'
  s.dependency 'Capacitor'
  s.dependency 'Whereabouts'
  s.dependency 'WhereaboutsApple'
  s.swift_version = '5.9'
end
