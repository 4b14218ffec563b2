require 'json'

package = JSON.parse(File.read(File.join(__dir__, 'package.json')))

# The React Native module over the Whereabouts engine, a Swift package that React Native 0.75+'s
# `spm_dependency` adds to the pod. Set WHEREABOUTS_SWIFT_PACKAGE_URL (or package.json's
# whereabouts.swiftPackage) to the repository's URL.
Pod::Spec.new do |s|
  s.name = 'WhereaboutsReactNative'
  s.version = package['version']
  s.summary = package['description']
  s.license = package['license']
  s.homepage = 'https://reactnative.dev'
  s.author = 'Whereabouts'
  s.source = { :git => 'https://invalid.example/whereabouts.git', :tag => s.version.to_s }
  s.source_files = 'ios/**/*.{swift,m}'
  s.ios.deployment_target = '15.0'
  s.swift_version = '5.9'

  install_modules_dependencies(s)
  spm_dependency(s,
    url: ENV['WHEREABOUTS_SWIFT_PACKAGE_URL'] || package['whereabouts']['swiftPackage'],
    requirement: { kind: 'branch', branch: 'main' },
    products: ['Whereabouts'])
end
