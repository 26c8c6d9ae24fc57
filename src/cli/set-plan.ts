// Operator command: `npm run set-plan -- <email> <free|paid>`. Uses DATABASE_URL, or the
// embedded database that `npm start` is running from DATA_DIR.
import { loadConfig } from '../config.ts';
import { createOrm, migrate } from '../db/orm.ts';
import { findUserIdByEmail } from '../features/account/service.ts';
import { setPlan } from '../features/credits/wallet.ts';
import { OperatorError, operatorContext, operatorDatabaseUrl } from './operator-config.ts';

const [email, plan] = process.argv.slice(2);
if (!email || (plan !== 'free' && plan !== 'paid')) {
  console.error('usage: npm run set-plan -- <email> <free|paid>');
  process.exit(2);
}
const config = loadConfig();
let databaseUrl: string;
try {
  databaseUrl = operatorDatabaseUrl(config);
} catch (error) {
  if (!(error instanceof OperatorError)) throw error;
  console.error(error.message);
  process.exit(2);
}
const orm = await createOrm(databaseUrl);
await migrate(orm);
const ctx = operatorContext(config, orm);
const userId = await findUserIdByEmail(ctx, email);
if (!userId) {
  console.error(`No account with email ${email}`);
  process.exit(1);
}
const wallet = await setPlan(ctx, userId, plan);
console.log(`${email}: plan ${wallet.plan}, balance ${wallet.balance} until ${wallet.periodEnd}`);
await orm.close();
