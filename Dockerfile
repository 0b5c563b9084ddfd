# Herald server image. Used by docker-compose.yml; runs TypeScript with tsx.
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/app/data
COPY package.json package-lock.json ./
# Run-time dependencies include tsx (runs the TypeScript sources) and the
# Prisma CLI (applies migrations at start-up).
RUN npm ci --omit=dev --no-audit --no-fund
COPY . .
RUN npm run prisma -- generate
EXPOSE 3000
# Not `npm start`: node runs as PID 1 and handles SIGTERM itself (graceful
# shutdown); npm in between would not pass the signal on reliably.
CMD ["node", "--import", "tsx", "src/main.ts"]
