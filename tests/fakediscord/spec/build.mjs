// Turns the Zod schemas of the npm package discord-api-spec (generated from Discord's
// OpenAPI description) into JSON Schema for the request bodies the fake Discord checks.
// Run by `npm ci` here (postinstall); writes build/schemas.json, which is not committed.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as z from "zod/mini";
import * as spec from "discord-api-spec/zod";

const here = dirname(fileURLToPath(import.meta.url));
const { operations } = JSON.parse(readFileSync(join(here, "operations.json"), "utf8"));
const pkg = JSON.parse(
  readFileSync(join(here, "node_modules", "discord-api-spec", "package.json"), "utf8"),
);

// Name every schema of the package, so shared parts become named $defs.
for (const [name, schema] of Object.entries(spec)) {
  if (name.endsWith("Schema") && schema && typeof schema === "object" && "_zod" in schema) {
    z.globalRegistry.add(schema, { id: name.slice(0, -"Schema".length) });
  }
}

const wanted = new Set();
for (const operation of Object.values(operations)) {
  if (Array.isArray(operation)) operation.forEach((n) => wanted.add(n));
  else if (operation.array_of) wanted.add(operation.array_of);
  else Object.values(operation.by_type).forEach((n) => wanted.add(n));
}

const schemas = {};
for (const name of [...wanted].sort()) {
  const schema = spec[`${name}Schema`];
  if (!schema) throw new Error(`discord-api-spec has no schema ${name}`);
  // "input": what Discord accepts; objects stay open to fields the schema does not name.
  schemas[name] = z.toJSONSchema(schema, { io: "input", unrepresentable: "any", cycles: "ref" });
}
mkdirSync(join(here, "build"), { recursive: true });
const out = { package: `${pkg.name}@${pkg.version}`, schemas };
writeFileSync(join(here, "build", "schemas.json"), JSON.stringify(out));
console.log(`fake Discord: ${wanted.size} request schemas from ${out.package}`);
