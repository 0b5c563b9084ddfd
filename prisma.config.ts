// Prisma CLI configuration. Prisma 6.19 runs fully offline here: the JS schema
// engine (`engine: "js"`) talks to Postgres through a driver adapter, so no
// native engine binary is downloaded. The 7.x pg adapter is used here only
// (the 6.19 one fails in `migrate deploy`); the runtime client uses 6.19's.
import { defineConfig } from 'prisma/config';
import { PrismaPg } from 'prisma-adapter-pg-migrate';

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  adapter: async () => {
    const connectionString = process.env.DATABASE_URL;
    if (!connectionString) throw new Error('DATABASE_URL is not set (needed by prisma migrate)');
    // allowExitOnIdle: without it the CLI waits for the pool's idle timeout (10 s) before exiting.
    return new PrismaPg({ connectionString, allowExitOnIdle: true });
  },
});
