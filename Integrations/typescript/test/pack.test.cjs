// `npm pack --dry-run` lists exactly the files each package ships: its compiled dist/, its native
// sources and manifests, nothing from the tests or the build.
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const path = require('node:path');
const { test } = require('node:test');

const shared = ['api', 'errors', 'index', 'names', 'types'].flatMap((name) => [`dist/typescript/src/${name}.d.ts`, `dist/typescript/src/${name}.js`]);

const expected = {
  capacitor: [
    'Package.swift', 'README.md', 'WhereaboutsCapacitor.podspec', 'package.json',
    'dist/capacitor/src/index.d.ts', 'dist/capacitor/src/index.js', 'dist/capacitor/src/web.d.ts', 'dist/capacitor/src/web.js',
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
  test(`npm pack --dry-run: ${name} ships exactly its files`, () => {
    const cwd = path.join(__dirname, '..', '..', name);
    const report = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
    assert.deepEqual(report[0].files.map((file) => file.path).sort(), [...files].sort());
  });
}
