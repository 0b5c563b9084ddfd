# Herald server image. Used by docker-compose.yml; runs TypeScript with tsx.
# Node 24 LTS, pinned to the release CI uses (scripts/ensure-node.sh).
FROM node:24.21.0-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/app/data
COPY package.json package-lock.json ./
# Run-time dependencies include tsx (runs the TypeScript sources) and the
# Prisma CLI (applies migrations at start-up).
RUN npm ci --omit=dev --no-audit --no-fund
COPY . .
RUN npm run prisma -- generate
# The server runs as the image's unprivileged `node` user: the code stays
# root's (read-only to the server); only the embedded database's folder (used
# when DATABASE_URL is unset) is the server's to write.
RUN mkdir -p "$DATA_DIR" && chown node:node "$DATA_DIR"
USER node
EXPOSE 3000
# Not `npm start`: node runs as PID 1 and handles SIGTERM itself (graceful
# shutdown); npm in between would not pass the signal on reliably.
CMD ["node", "--import", "tsx", "src/main.ts"]
