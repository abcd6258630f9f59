/**
 * Operators' CLI for clubs and communities (the API only reads them). Uses the configured store, the same
 * environment as the server (DATABASE or MONGODB_URL):
 *
 *   npm run communities -- create --kind club|community --name "Name"
 *   npm run communities -- add COMMUNITY_ID FRIEND_CODE
 *   npm run communities -- remove COMMUNITY_ID FRIEND_CODE
 *   npm run communities -- list [--kind club|community]
 */
import { CommunityAdmin, type CommunityKind } from "../src/services/communities";
import { loadConfig } from "../src/shared/config";
import { isAppError } from "../src/shared/errors";
import { openStore } from "../src/store";

const USAGE = `usage:
  communities create --kind club|community --name NAME
  communities add ID FRIEND_CODE
  communities remove ID FRIEND_CODE
  communities list [--kind club|community]`;

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

function kindOf(value: string | undefined, required: boolean): CommunityKind | undefined {
  if (value === undefined && !required) return undefined;
  if (value === "club" || value === "community") return value;
  throw new UsageError(`--kind must be club or community`);
}

class UsageError extends Error {}

async function run(args: string[], admin: CommunityAdmin): Promise<string> {
  const [command, ...rest] = args;
  switch (command) {
    case "create": {
      const kind = kindOf(flag(rest, "kind"), true)!;
      const name = flag(rest, "name")?.trim();
      if (!name || name.length > 80) throw new UsageError("--name is required (1-80 characters)");
      const c = await admin.create(kind, name);
      return JSON.stringify({ id: c.id, kind: c.kind, name: c.name });
    }
    case "add":
    case "remove": {
      const [id, code] = rest;
      if (!id || !code) throw new UsageError(`${command} needs a community id and a friend code`);
      if (command === "add") return JSON.stringify({ id, added: await admin.add(id, code) });
      await admin.remove(id, code);
      return JSON.stringify({ id, removed: code });
    }
    case "list": {
      const list = await admin.list(kindOf(flag(rest, "kind"), false));
      return list.map((c) => JSON.stringify({ id: c.id, kind: c.kind, name: c.name, members: c.members })).join("\n");
    }
    default:
      throw new UsageError(command ? `unknown command ${command}` : "a command is required");
  }
}

async function main(): Promise<number> {
  const config = loadConfig();
  const store = await openStore({ database: config.database, mongodbUrl: config.mongodbUrl });
  try {
    const out = await run(process.argv.slice(2), new CommunityAdmin(store));
    if (out) process.stdout.write(`${out}\n`);
    return 0;
  } catch (e) {
    if (e instanceof UsageError) process.stderr.write(`${e.message}\n${USAGE}\n`);
    else if (isAppError(e)) process.stderr.write(`${e.code}: ${e.detail}\n`);
    else throw e;
    return e instanceof UsageError ? 2 : 1;
  } finally {
    await store.close();
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
  },
);
