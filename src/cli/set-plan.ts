// Operator command: `npm run set-plan -- <email> <free|paid>`. Uses DATABASE_URL, or the
// embedded database that `npm start` is running from DATA_DIR.
import { loadConfig } from '../config.ts';
import { createOrm, migrate } from '../db/orm.ts';
import { findUserIdByEmail } from '../features/account/service.ts';
import { setPlan } from '../features/credits/wallet.ts';
import { OperatorError, operatorDatabaseUrl } from './operator-config.ts';

const [email, plan] = process.argv.slice(2);
if (!email || (plan !== 'free' && plan !== 'paid')) {
  console.error('usage: npm run set-plan -- <email> <free|paid>');
  process.exit(2);
}
let databaseUrl: string;
try {
  databaseUrl = operatorDatabaseUrl(loadConfig());
} catch (error) {
  if (!(error instanceof OperatorError)) throw error;
  console.error(error.message);
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
