// The map of the parts in docs/design.md against the tree: every folder it must name has its line,
// and every line names a folder that exists, or is marked (planned) and does not exist yet.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../', import.meta.url));

interface MapLine {
  path: string;
  planned: boolean;
}

/** The rows of the table under "## The parts": `| \`path\` | what it holds |`. */
function mapLines(markdown: string): MapLine[] {
  const section = markdown.split(/^## The parts$/m)[1]?.split(/^## /m)[0];
  if (section === undefined) throw new Error('docs/design.md has no "## The parts" section');
  return [...section.matchAll(/^\| `([^`]+)` \| (.*) \|$/gm)].map(([, path, text]) => ({
    path: path!,
    planned: text!.startsWith('*(planned)*'),
  }));
}

/**
 * What .gitignore leaves out of the repository (node_modules, build output, local state, test
 * artifacts): a name alone matches at any depth, a name with a slash that one path.
 */
const ignorePatterns = readFileSync(join(repo, '.gitignore'), 'utf8')
  .split('\n')
  .map((line) => line.trim().replace(/\/$/, ''))
  .filter((line) => line !== '' && !line.startsWith('#') && !line.includes('*'));
function ignored(folder: string): boolean {
  const path = folder.slice(0, -1);
  const name = path.split('/').at(-1)!;
  return name === '.git' || ignorePatterns.some((pattern) => (pattern.includes('/') ? pattern === path : pattern === name));
}

/** The folders directly in a folder ('' for the repository's top), as `path/`, leaving out what git ignores. */
const subfolders = (folder: string): string[] =>
  readdirSync(join(repo, folder), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `${folder}${entry.name}/`)
    .filter((path) => !ignored(path));

const allFolders = (folder: string): string[] => subfolders(folder).flatMap((sub) => [sub, ...allFolders(sub)]);

/**
 * The folders the map must name: each top-level folder of the repository and the folders directly
 * in it, the app's folders in web/src/, and every folder of api/ at any depth.
 */
function foldersToMap(): string[] {
  const top = subfolders('');
  return [...new Set([...top, ...top.flatMap(subfolders), ...subfolders('web/src/'), ...allFolders('api/')])].sort();
}

const isFolder = (path: string): boolean => existsSync(join(repo, path)) && statSync(join(repo, path)).isDirectory();

/** A line like `api/*.ts`: files of one folder with one extension, at least one of which exists. */
function filesExist(path: string): boolean {
  const match = /^(.*\/)\*(\.[a-z]+)$/.exec(path);
  if (match === null || !isFolder(match[1]!)) return false;
  return readdirSync(join(repo, match[1]!)).some((name) => name.endsWith(match[2]!));
}

const lines = mapLines(readFileSync(join(repo, 'docs/design.md'), 'utf8'));

describe("docs/design.md's map of the parts", () => {
  it('reads as a table of folders', () => {
    expect(lines.length).toBeGreaterThan(20);
    const paths = lines.map((line) => line.path);
    expect(paths.filter((path, i) => paths.indexOf(path) !== i)).toEqual([]);
  });

  it('has a line for every folder of api/, every top-level folder and the folders directly in them', () => {
    const mapped = new Set(lines.map((line) => line.path));
    expect(foldersToMap().filter((folder) => !mapped.has(folder))).toEqual([]);
  });

  it('names only folders that exist, unless the line says (planned)', () => {
    const missing = lines.filter((line) => !line.planned && !(line.path.endsWith('/') ? isFolder(line.path) : filesExist(line.path)));
    expect(missing.map((line) => line.path)).toEqual([]);
  });

  it('drops (planned) once the folder exists', () => {
    expect(lines.filter((line) => line.planned && isFolder(line.path)).map((line) => line.path)).toEqual([]);
  });
});
