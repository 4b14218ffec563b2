// `npm pack --dry-run` lists exactly the files each package ships: its compiled dist/, its native
// sources and manifests, and the engine (engine/: the CocoaPods specs and the sources of every target
// engine/targets.json names), nothing from the tests or the build.
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');

const integrations = path.join(__dirname, '..', '..');
const repository = path.join(integrations, '..');
const shared = ['api', 'errors', 'index', 'names', 'types'].flatMap((name) => [`dist/typescript/src/${name}.d.ts`, `dist/typescript/src/${name}.js`]);

/** Every file of the engine as the packages ship it under engine/. */
function engineFiles() {
  const template = path.join(integrations, 'engine');
  const { targets } = JSON.parse(fs.readFileSync(path.join(template, 'targets.json'), 'utf8'));
  const copied = fs.readdirSync(template).filter((file) => file !== 'copy-engine.js');
  const sources = Object.keys(targets).flatMap((name) =>
    fs.readdirSync(path.join(repository, 'Sources', name), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(repository, path.join(entry.parentPath ?? entry.path, entry.name))),
  );
  return [...copied, ...sources].map((file) => `engine/${file}`);
}

const expected = {
  capacitor: [
    'Package.swift', 'README.md', 'WhereaboutsCapacitor.podspec', 'package.json',
    'dist/capacitor/src/index.d.ts', 'dist/capacitor/src/index.js', 'dist/capacitor/src/trail.d.ts', 'dist/capacitor/src/trail.js',
    'dist/capacitor/src/web.d.ts', 'dist/capacitor/src/web.js',
    'ios/Sources/WhereaboutsPlugin/WhereaboutsPlugin.swift', ...shared,
  ],
  'react-native': [
    'README.md', 'WhereaboutsReactNative.podspec', 'app.plugin.js', 'package.json', 'src/NativeWhereabouts.ts',
    'dist/react-native/src/NativeWhereabouts.d.ts', 'dist/react-native/src/NativeWhereabouts.js',
    'dist/react-native/src/index.d.ts', 'dist/react-native/src/index.js',
    'ios/WhereaboutsModule.m', 'ios/WhereaboutsModule.swift', ...shared,
  ],
};

for (const [name, files] of Object.entries(expected)) {
  test(`npm pack --dry-run: ${name} ships exactly its files and the engine`, () => {
    const cwd = path.join(integrations, name);
    const report = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
    assert.deepEqual(report[0].files.map((file) => file.path).sort(), [...files, ...engineFiles()].sort());
  });
}
