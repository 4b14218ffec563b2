// Run by each package's `prepack`: copies the engine into the package being packed, as engine/ beside
// its package.json: the CocoaPods specs and targets.json from this folder, and the Swift (and C) sources
// of every target targets.json lists from the repository's Sources/. An installed package so carries
// everything its native side compiles, with no path outside it.
const fs = require('node:fs');
const path = require('node:path');

const template = __dirname;
const sources = path.join(__dirname, '..', '..', 'Sources');
const destination = path.join(process.cwd(), 'engine');
const { targets } = JSON.parse(fs.readFileSync(path.join(template, 'targets.json'), 'utf8'));

fs.rmSync(destination, { recursive: true, force: true });
fs.mkdirSync(destination);
for (const file of fs.readdirSync(template)) {
  if (file !== path.basename(__filename)) fs.copyFileSync(path.join(template, file), path.join(destination, file));
}
for (const name of Object.keys(targets)) {
  fs.cpSync(path.join(sources, name), path.join(destination, 'Sources', name), { recursive: true });
}
