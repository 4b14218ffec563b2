# Reads podspecs and the engine's Podfile helper as CocoaPods would, for install.test.cjs: prints, as
# JSON, each podspec's name, dependencies and the files its patterns match in the installed package,
# and the pods `whereabouts_pods` adds with their options. Arguments: the podspec paths, then
# `--podfile-helper <engine/cocoapods.rb>`.
require 'json'

module Pod
  # The podspec DSL, keeping the attributes the test checks.
  class Spec
    attr_accessor :name, :version, :summary, :license, :author, :module_name, :swift_version, :pod_target_xcconfig
    attr_reader :dependencies, :source_files, :resources

    def initialize
      @dependencies = []
      @resources = []
      @platform = Object.new.tap { |p| p.define_singleton_method(:deployment_target=) { |_| } }
      yield self
    end

    def ios = @platform
    def dependency(name, *_requirements) = @dependencies << name
    def source_files=(patterns)
      @source_files = Array(patterns)
    end
    def resource_bundles=(bundles)
      @resources = bundles.values.flatten
    end
  end
end

# React Native's helper that podspecs call; its dependencies come from the app's React Native.
def install_modules_dependencies(_spec); end

def describe(path)
  spec = eval(File.read(path), binding, path)
  root = File.dirname(path)
  matches = ->(pattern) { Dir.glob(pattern, base: root).select { |file| File.file?(File.join(root, file)) } }
  {
    podspec: path, name: spec.name, dependencies: spec.dependencies,
    patterns: (spec.source_files + spec.resources).to_h { |pattern| [pattern, matches.(pattern)] },
  }
end

helper_at = ARGV.index('--podfile-helper')
podspecs = helper_at ? ARGV[0...helper_at] : ARGV
added = []
if helper_at
  require ARGV[helper_at + 1]
  define_method(:pod) { |name, options = {}| added << { name: name, options: options } }
  whereabouts_pods
end
puts JSON.generate({ podspecs: podspecs.map { |path| describe(path) }, pods: added })
