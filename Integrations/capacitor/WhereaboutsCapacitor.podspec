require 'json'

package = JSON.parse(File.read(File.join(__dir__, 'package.json')))

# The plugin's Swift file over Capacitor. The Whereabouts engine it imports is a Swift package, which
# CocoaPods cannot depend on: apps on Swift Package Manager (Capacitor 6+'s `--packagemanager SPM`)
# get it through Package.swift; CocoaPods apps must make the `Whereabouts` module visible to this pod
# themselves (see README.md).
Pod::Spec.new do |s|
  s.name = 'WhereaboutsCapacitor'
  s.version = package['version']
  s.summary = package['description']
  s.license = package['license']
  s.homepage = 'https://capacitorjs.com'
  s.author = 'Whereabouts'
  s.source = { :git => 'https://invalid.example/whereabouts.git', :tag => s.version.to_s }
  s.source_files = 'ios/Sources/**/*.swift'
  s.ios.deployment_target = '15.0'
  s.dependency 'Capacitor'
  s.swift_version = '5.9'
end
