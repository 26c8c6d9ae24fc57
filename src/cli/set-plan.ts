// Operator command: `npm run set-plan -- <email> <free|paid>`. Uses DATABASE_URL, or the
// embedded database that `npm start` is running from DATA_DIR.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config.ts';
import { createOrm, migrate } from '../db/orm.ts';
import { findUserIdByEmail } from '../features/account/service.ts';
import { setPlan } from '../features/credits/wallet.ts';

const [email, plan] = process.argv.slice(2);
if (!email || (plan !== 'free' && plan !== 'paid')) {
  console.error('usage: npm run set-plan -- <email> <free|paid>');
  process.exit(2);
}
const config = loadConfig();
const embeddedUrlFile = path.join(config.dataDir, 'database-url');
const databaseUrl = config.databaseUrl ?? (existsSync(embeddedUrlFile) ? readFileSync(embeddedUrlFile, 'utf8').trim() : null);
if (!databaseUrl) {
  console.error('Set DATABASE_URL, or run this while `npm start` runs the embedded database.');
  process.exit(2);
}
const orm = await createOrm(databaseUrl);
await migrate(orm);
const em = orm.em.fork();
const userId = await findUserIdByEmail(em, email);
if (!userId) {
  console.error(`No account with email ${email}`);
  process.exit(1);
}
const wallet = await setPlan(em, userId, plan);
console.log(`${email}: plan ${wallet.plan}, balance ${wallet.balance} until ${wallet.periodEnd}`);
await orm.close();
