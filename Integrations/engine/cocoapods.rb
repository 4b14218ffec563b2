require 'json'

# The Whereabouts engine for CocoaPods: one pod per Swift module of the repository's Package.swift
# (targets.json lists them), so the sources' `import WhereaboutsCore` lines resolve as they do under
# Swift Package Manager. Each <Target>.podspec beside this file is one of them; an app's Podfile adds
# them all with `whereabouts_pods`.
module WhereaboutsEngine
  MANIFEST = JSON.parse(File.read(File.join(__dir__, 'targets.json')))

  # The pod of one engine target: its sources under Sources/<name>/ (copied there when the npm package
  # is packed), its dependencies, and its privacy manifest as a resource bundle.
  def self.pod(name)
    target = MANIFEST['targets'].fetch(name)
    Pod::Spec.new do |s|
      s.name = name
      s.version = MANIFEST['version']
      s.summary = target['summary']
      s.license = 'Apache-2.0'
      s.author = 'Whereabouts'
      s.module_name = name
      s.ios.deployment_target = '15.0'
      s.swift_version = '6.0'
      s.source_files = "Sources/#{name}/**/*.{swift,c,h}"
      s.pod_target_xcconfig = { 'DEFINES_MODULE' => 'YES' }
      target['dependencies'].each { |dependency| s.dependency dependency }
      resources = target.fetch('resources', []).map { |file| "Sources/#{name}/#{file}" }
      s.resource_bundles = { "#{name}_Privacy" => resources } unless resources.empty?
    end
  end
end

# For an app's Podfile, inside its target: every engine pod from this folder, and GRDB as GRDB's README
# says for CocoaPods (its 7.x releases are not on the CocoaPods CDN, so by git tag).
def whereabouts_pods
  grdb = WhereaboutsEngine::MANIFEST['grdb']
  pod 'GRDB.swift', git: grdb['git'], tag: grdb['tag']
  WhereaboutsEngine::MANIFEST['targets'].each_key { |name| pod name, path: __dir__ }
end
